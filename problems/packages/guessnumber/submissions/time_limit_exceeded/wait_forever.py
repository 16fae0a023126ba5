# Waits for a reply without asking anything: both sides wait for each other until the
# wall-clock limit.
import sys
n = int(sys.stdin.readline())
sys.stdin.readline()
