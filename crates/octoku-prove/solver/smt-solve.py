"""Decide SMT-LIB2 files with the pinned bitwuzla (PyPI) and print the answers.

Usage: python tools/smt-solve.py [--seconds S] FILE.smt2...
(octoku embeds this file and runs it as python -I -c SCRIPT ...)

S limits each check (0.001 to 86400, default 600); past it the answer is "unknown". The
files are decided one after the other in this one process (a process per
file would pay Python's and bitwuzla's start-up, about 0.2 s, each time).

Prints, for every file in order:
  file <path>
  solver bitwuzla <version>
  result sat|unsat|unknown
  seconds <wall time of the check, parse excluded>
  value <name> <hex>      (for every declared constant, only when sat)
Exit status: 0 when every file was answered, 2 on bad usage or a missing or
malformed file (the files before it are reported).
The files' own (check-sat) is not run here (each file is parsed only), so a
file also runs as is in any SMT-LIB2 solver: bitwuzla FILE, cvc5 FILE, ...
"""

import argparse
import sys
import time

import bitwuzla


def decide(path: str, limit: float) -> bool:
    tm = bitwuzla.TermManager()
    options = bitwuzla.Options()
    options.set(bitwuzla.Option.PRODUCE_MODELS, True)
    # At least 1 ms: 0 would mean no limit at all.
    options.set(bitwuzla.Option.TIME_LIMIT_PER, max(1, round(limit * 1000)))
    parser = bitwuzla.Parser(tm, options)
    try:
        parser.parse(path, parse_only=True)
    except (bitwuzla.BitwuzlaException, OSError) as e:
        print(f"smt-solve: cannot read {path}: {e}", file=sys.stderr)
        return False
    solver = parser.bitwuzla()
    print(f"file {path}")
    print(f"solver bitwuzla {bitwuzla.version()}")
    began = time.monotonic()
    result = solver.check_sat()
    elapsed = time.monotonic() - began
    name = {
        bitwuzla.Result.SAT: "sat",
        bitwuzla.Result.UNSAT: "unsat",
    }.get(result, "unknown")
    print(f"result {name}")
    print(f"seconds {elapsed:.3f}")
    if result == bitwuzla.Result.SAT:
        for term in parser.get_declared_funs():
            value = solver.get_value(term).value(16)
            print(f"value {term.symbol()} {value}")
    sys.stdout.flush()
    return True


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.001 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"expected seconds from 0.001 to 86400, got {text!r}")
    return value


def main() -> int:
    args = argparse.ArgumentParser(prog="smt-solve", description="Decide SMT-LIB2 files with bitwuzla.")
    args.add_argument("--seconds", type=seconds, default=600.0, help="limit per check (default 600)")
    args.add_argument("files", nargs="+", metavar="FILE.smt2")
    parsed = args.parse_args()
    for path in parsed.files:
        if not decide(path, parsed.seconds):
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
