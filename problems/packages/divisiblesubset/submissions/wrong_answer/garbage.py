# Prints text instead of a group, with a stray control byte and a number far too large:
# the output validator must reject it, not crash on it.
import sys

sys.stdout.write("I think the answer is\n99999999999999999999999999 friends\x00\x07\xff\n")
