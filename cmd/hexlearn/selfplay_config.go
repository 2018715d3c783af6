package main

import (
	"strconv"
	"strings"
)

// selfplayBoardSize parses "N" or "WxH".
func selfplayBoardSize(s string) (int, int, error) {
	if s == "" {
		return 0, 0, usageErr("--size is required")
	}
	a, b, found := strings.Cut(strings.ToLower(s), "x")
	w, err1 := strconv.Atoi(a)
	h := w
	var err2 error
	if found {
		h, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil || w < 1 || h < 1 || w > 19 || h > 19 {
		return 0, 0, usageErr("--size %q: want N or WxH with sides 1..19", s)
	}
	return w, h, nil
}
