#!/bin/bash
# The self-play of iteration 2 of the hexlearn loop in /shared/loops/run 1: one array task
# per shard still to do. Written by 'hexlearn loop --runner slurm'; submit it with
#   sbatch '/shared/loops/run 1/iter-002/selfplay/slurm-array.sh'
#SBATCH --job-name=hexlearn-loop-iter-002
#SBATCH --array=0-2,5
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=2
#SBATCH --mem=3000M
#SBATCH --partition=cpu
#SBATCH --output="/shared/loops/run 1/iter-002/selfplay/slurm-%A_%a.log"
#SBATCH --time=4:00:00
#SBATCH --account=hex
exec /opt/hexlearn/bin/hexlearn loop shard --dir '/shared/loops/run 1' --iteration 2 --workers 2
