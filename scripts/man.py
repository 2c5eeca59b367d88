#!/usr/bin/env python3
"""man.py - writes bcwalk.1 from the command's own help, so the man page
says what `bcwalk --help` and each `bcwalk CMD --help` say.

usage: man.py BCWALK OUT.1"""
import os
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, capture_output=True, text=True,
                          check=True).stdout


def roff(text):
    """Preformatted text, escaped for roff."""
    lines = []
    for line in text.rstrip("\n").split("\n"):
        line = line.replace("\\", "\\e")
        if line.startswith((".", "'")):
            line = "\\&" + line
        lines.append(line)
    return ".nf\n" + "\n".join(lines) + "\n.fi\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    bcwalk, out = sys.argv[1], sys.argv[2]
    version = run(bcwalk, "--version").split()[-1]
    top = run(bcwalk, "--help")
    listing = top.split("commands:", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"^  (\w+) ", listing, re.M)
    page = [
        '.TH BCWALK 1 "" "bcwalk %s" "User Commands"' % version,
        ".SH NAME",
        "bcwalk \\- systematic unit testing of C libraries from their LLVM "
        "bitcode",
        ".SH SYNOPSIS",
        ".B bcwalk",
        ".I command",
        "[options]",
        ".SH DESCRIPTION",
        roff(top),
    ]
    for cmd in commands:
        page += [".SH BCWALK %s" % cmd.upper(), roff(run(bcwalk, cmd, "--help"))]
    page += [
        ".SH EXIT STATUS",
        "0 success; 2 bad usage or bad input, with one line on stderr naming "
        "the file and the problem; 3 the input was good but the command "
        "could not finish (its worker could not be built or started, a "
        "worker stopped answering, memory ran out, a write failed), with "
        "one line on stderr saying what failed. Interrupted by SIGINT, "
        "SIGTERM or SIGHUP, bcwalk ends by that signal.",
        ".SH ENVIRONMENT",
        ".TP",
        ".B XDG_CACHE_HOME",
        "worker builds and analysed models are cached under "
        "$XDG_CACHE_HOME/bcwalk (default ~/.cache/bcwalk).",
        ".TP",
        ".B BCWALK_PREFIX",
        "where bcwalk's runtime library and headers are installed "
        "(default: the folder above the one holding the bcwalk executable).",
        ".SH SEE ALSO",
        "clang(1), opt(1), pkg-config(1)",
        "",
    ]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(page))
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
