#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal of a given width, answers its first prompt, and prints what the
terminal showed.

Usage: pty-run.py COLUMNS ANSWER PROMPT_TEXT -- COMMAND [ARGS...]
An empty PROMPT_TEXT answers nothing. Prints JSON: {"screen": all output, "code": exit status, or null
when the command was still running after 20 seconds (it is killed)}.
"""
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

columns, answer, prompt = int(sys.argv[1]), sys.argv[2], sys.argv[3].encode()
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))

screen = b""
answered = not prompt
finished = False
deadline = time.time() + 20
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            finished = True
            break
        if not chunk:
            finished = True
            break
        screen += chunk
    if not answered and prompt in screen:
        os.write(fd, answer.encode() + b"\r")
        answered = True
if not finished:
    os.kill(pid, signal.SIGKILL)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status) if finished else None
print(json.dumps({"screen": screen.decode("utf-8", "replace"), "code": code}))
