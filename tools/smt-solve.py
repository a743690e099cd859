"""Decide one SMT-LIB2 file with the pinned bitwuzla (PyPI) and print the answer.

Usage: .venv-solver/bin/python tools/smt-solve.py FILE.smt2 [SECONDS]

SECONDS limits the check (default 600); past it the answer is "unknown".

Prints, one per line:
  solver bitwuzla <version>
  result sat|unsat|unknown
  seconds <wall time of the check, parse excluded>
  value <name> <hex>      (for every declared constant, only when sat)
Exit status: 0 on an answer, 2 on a missing or malformed file.
The file's own (check-sat) is not run here (the file is parsed only), so a
file also runs as is in any SMT-LIB2 solver: bitwuzla FILE, cvc5 FILE, ...
"""

import sys
import time

import bitwuzla


def main() -> int:
    if len(sys.argv) not in (2, 3):
        print("usage: smt-solve.py FILE.smt2 [SECONDS]", file=sys.stderr)
        return 2
    path = sys.argv[1]
    try:
        limit = float(sys.argv[2]) if len(sys.argv) == 3 else 600.0
    except ValueError:
        limit = -1.0
    if not limit > 0:
        print(f"smt-solve: SECONDS must be a positive number, got {sys.argv[2]!r}", file=sys.stderr)
        return 2
    tm = bitwuzla.TermManager()
    options = bitwuzla.Options()
    options.set(bitwuzla.Option.PRODUCE_MODELS, True)
    options.set(bitwuzla.Option.TIME_LIMIT_PER, int(limit * 1000))
    parser = bitwuzla.Parser(tm, options)
    try:
        parser.parse(path, parse_only=True)
    except (bitwuzla.BitwuzlaException, OSError) as e:
        print(f"smt-solve: cannot read {path}: {e}", file=sys.stderr)
        return 2
    solver = parser.bitwuzla()
    print(f"solver bitwuzla {bitwuzla.version()}", flush=True)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
