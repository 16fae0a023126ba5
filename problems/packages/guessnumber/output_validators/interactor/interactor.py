"""Interactor for Guess the Number (Kattis convention).

Called as `interactor INPUT ANSWER FEEDBACK_DIR`; its standard output goes to the
program and the program's output comes in on its standard input. Exit 42 accepts,
43 rejects (with the reason in FEEDBACK_DIR/judgemessage.txt).
"""

import os
import sys

QUERY_LIMIT = 30
MAX_LINE = 64


def main() -> None:
    n, secret = map(int, open(sys.argv[1]).read().split())
    feedback = sys.argv[3]

    def reject(message: str) -> None:
        with open(feedback + "judgemessage.txt", "w") as f:
            f.write(message + "\n")
        # Leave at once: the program sees the end of its input only as this process ends,
        # so a judge sees the rejection before any crash it causes (a program that aborts
        # on the end of its input is WA, not RTE). Nothing is flushed: whatever could not be
        # written to a program that already left is dropped.
        os._exit(43)

    def say(text: object) -> None:
        try:
            print(text, flush=True)
        except BrokenPipeError:
            reject("the program left before reading the reply")

    say(n)
    queries = 0
    while True:
        # Bytes, not text: whatever the program prints (invalid UTF-8, a line without
        # end) is a malformed line, never a crash of the interactor.
        raw = sys.stdin.buffer.readline(MAX_LINE + 1)
        if not raw:
            reject("the program ended without an answer")
        if len(raw) > MAX_LINE:
            reject(f"a line longer than {MAX_LINE} bytes")
        line = raw.decode("ascii", errors="replace")
        parts = line.split()
        if len(parts) != 2 or parts[0] not in ("?", "!") or not parts[1].lstrip("-").isdigit():
            reject(f"malformed line: {line.strip()[:40]!r}")
        y = int(parts[1])
        if parts[0] == "!":
            if y == secret:
                # Accepted once the program has ended without printing anything more.
                trailing = sys.stdin.buffer.read(MAX_LINE + 1)
                if trailing.strip():
                    reject(f"output after the answer: {trailing[:40]!r}")
                sys.exit(42)
            reject(f"answered {y}, the number was {secret}")
        queries += 1
        if queries > QUERY_LIMIT:
            reject(f"more than {QUERY_LIMIT} questions")
        if not 1 <= y <= n:
            reject(f"question {y} outside 1..{n}")
        say("<" if secret < y else (">" if secret > y else "="))


if __name__ == "__main__":
    main()
