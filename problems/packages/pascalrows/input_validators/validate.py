#!/usr/bin/env python3
"""Input validator for `pascalrows`: exit 42 when the input is valid, 43 otherwise."""
import re
import sys

data = sys.stdin.read()
ok = re.fullmatch(r"[1-9][0-9]*\n", data) is not None and 1 <= int(data) <= 1000
sys.exit(42 if ok else 43)
