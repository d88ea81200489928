#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, answers its first prompt, and prints what the terminal showed.

Usage: pty-run.py ANSWER PROMPT_TEXT -- COMMAND [ARGS...]
Prints JSON: {"screen": everything written to the terminal, "code": exit status}.
"""
import json
import os
import pty
import select
import sys
import time

answer, prompt = sys.argv[1], sys.argv[2].encode()
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

screen = b""
answered = False
deadline = time.time() + 20
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    if not answered and prompt in screen:
        os.write(fd, answer.encode() + b"\r")
        answered = True
_, status = os.waitpid(pid, 0)
print(json.dumps({"screen": screen.decode("utf-8", "replace"), "code": os.waitstatus_to_exitcode(status)}))
