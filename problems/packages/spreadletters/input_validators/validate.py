#!/usr/bin/env python3
"""Input validator for `spreadletters`: exit 42 when the input is valid, 43 otherwise."""
import re
import sys

text = sys.stdin.read()
sys.exit(42 if re.fullmatch(r"[a-z]{1,200000}\n", text) else 43)
