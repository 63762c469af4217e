#!/usr/bin/env python3
"""Benchmark `lintel check --all` on generated TypeScript trees.

Generates a layered TypeScript project of N files (components, relative and aliased imports,
pg/redis/axios clients), then runs the release `lintel` binary on it `--runs` times with no
cache and prints the median wall time and files/s. Usage:

    scripts/bench.py                  # 1,000 and 10,000 files, 5 runs each
    scripts/bench.py --files 5000 --runs 3
    scripts/bench.py --diff             # `check --diff` on a 20-file change, cold then warm cache
    scripts/bench.py --project DIR --spec FILE   # a real repository: check --all against the parse-only floor,
                                                 # in back-to-back pairs (wall and CPU ratios per pair)
    scripts/bench.py --cases --project REPO --spec FILE [--runs N]
                                                 # the everyday runs on a git repository (in a shared clone,
                                                 # the repository is not touched): cold `--all`; a staged check
                                                 # after a one-file edit; `--diff` of a real 20-40-file range
                                                 # without a cache and with the cache of its base commit; an
                                                 # exact repeat. Median wall time and peak RSS of each.
    scripts/bench.py --adversarial [--size N]    # one broken or degenerate file per case and language:
                                                 # check --all against the floor; extraction must stay
                                                 # linear where tree-sitter's parse is
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
LAYERS = ["web", "api", "domain", "repo", "infra"]


def generate(root: pathlib.Path, files: int) -> None:
    spec = [
        "node app : server { trust: trusted }",
        "node db : postgres",
        "node cache : redis",
        "node partner : rest_api",
    ]
    for layer in LAYERS:
        spec.append(f'component {layer.capitalize()} {{ runs_on: app paths: "src/{layer}/**" }}')
    spec.append("invariant Layering {")
    spec.append("  deny flow Web -> db")
    spec.append("  deny reach Web -> Repo")
    spec.append("  require flow Api -> db via Repo")
    spec.append("  deny reach Infra -> Web")
    spec.append("}")
    (root / "architecture.ag").write_text("\n".join(spec) + "\n")
    (root / "tsconfig.json").write_text('{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["src/*"] } } }\n')
    per_layer = max(1, files // len(LAYERS))
    for index_layer, layer in enumerate(LAYERS):
        for number in range(per_layer):
            folder = root / "src" / layer / f"m{number // 50}"
            folder.mkdir(parents=True, exist_ok=True)
            lines = []
            if number > 0:
                lines.append(f'import {{ f{number - 1} }} from "../m{(number - 1) // 50}/f{number - 1}";')
            if index_layer + 1 < len(LAYERS) and number % 7 == 0:
                below = LAYERS[index_layer + 1]
                lines.append(f'import {{ f{number} as down }} from "@/{below}/m{number // 50}/f{number}";')
            if layer == "repo" and number % 5 == 0:
                lines.append('import { Pool } from "pg";')
                lines.append("const pool = new Pool();")
            if layer == "infra" and number % 9 == 0:
                lines.append('import Redis from "ioredis";')
                lines.append("const redis = new Redis();")
            lines.append(f"export function f{number}(value: number): number {{")
            lines.append("  let total = value;")
            for step in range(20):
                lines.append(f"  total = total * {step + 2} % 1000003;")
            lines.append("  return total;")
            lines.append("}")
            (folder / f"f{number}.ts").write_text("\n".join(lines) + "\n")


def git(project: pathlib.Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", *args],
                   cwd=project, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def bench_diff(binary: pathlib.Path, size: int, runs: int) -> int:
    """`check --diff base` on a 20-file change: one cold run (empty cache), then `runs` warm runs."""
    with tempfile.TemporaryDirectory() as directory, tempfile.TemporaryDirectory() as cache:
        project = pathlib.Path(directory)
        generate(project, size)
        git(project, "init", "-q")
        git(project, "add", "-A")
        git(project, "commit", "-q", "-m", "base")
        git(project, "branch", "base")
        changed = sorted(project.rglob("f1*.ts"))[:20]
        for path in changed:
            path.write_text(path.read_text() + "export const touched = 1;\n")
        git(project, "commit", "-q", "-am", "change 20 files")
        environment = dict(os.environ, XDG_CACHE_HOME=cache)
        command = [str(binary), "check", "--diff", "base", "--json", "--project", str(project)]
        times = []
        for _ in range(runs + 1):
            started = time.perf_counter()
            result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
            times.append(time.perf_counter() - started)
            if result.returncode not in (0, 1):
                print(f"lintel exited {result.returncode}", file=sys.stderr)
                return 1
        cold, warm = times[0], statistics.median(times[1:])
        count = sum(1 for _ in project.rglob("*.ts"))
        print(f"--diff, {len(changed)} changed of {count} files: cold {cold * 1000:.0f} ms, "
              f"warm median {warm * 1000:.0f} ms over {runs} runs (cores: {os.cpu_count()})")
    return 0


def timed(command: list):
    """Runs `command` once; returns (wall seconds, CPU seconds of user and system time)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{command[1]} exited {code}")
    return wall, usage.ru_utime + usage.ru_stime


def measured(command: list, environment=None, cwd=None):
    """Runs `command` once; returns (wall seconds, peak RSS in MiB)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=environment, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return wall, usage.ru_maxrss / 1024


def output(project: pathlib.Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=project, check=True, capture_output=True, text=True).stdout


COMMENT = {".py": "#", ".java": "//", ".kt": "//", ".ts": "//", ".tsx": "//", ".js": "//", ".go": "//",
           ".cs": "//", ".rs": "//", ".swift": "//"}


def real_range(project: pathlib.Path, low: int = 20, high: int = 40):
    """A range of consecutive first-parent commits near HEAD that changes `low`-`high` files."""
    commits = output(project, "rev-list", "--first-parent", "-n", "80", "HEAD").split()
    for end in range(len(commits) - 1):
        for start in range(end + 1, len(commits)):
            count = len(output(project, "diff", "--name-only", commits[start], commits[end]).split())
            if count > high:
                break
            if count >= low:
                return commits[start], commits[end], count
    raise SystemExit("no range of 20-40 files in the last 80 commits")


def bench_cases(binary: pathlib.Path, source: pathlib.Path, spec, runs: int) -> int:
    """The everyday runs (see the module's help), each `runs` times: median wall, peak RSS."""
    spec = str(pathlib.Path(spec).resolve()) if spec else None
    extra = ["--spec", spec] if spec else []
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        scratch = pathlib.Path(scratch)
        project = scratch / source.name
        subprocess.run(["git", "clone", "-q", "--shared", str(source), str(project)], check=True)
        base, head, changed = real_range(project)
        git(project, "checkout", "-q", "--detach", head)
        cache = scratch / "cache"
        based = scratch / "cache-of-base"

        def environment(directory):
            return dict(os.environ, XDG_CACHE_HOME=str(directory))

        def lintel(*args):
            return [str(binary), "check", *args, "--json", "--project", str(project), *extra]

        def case(name, command, before=None, directory=cache):
            samples = []
            for _ in range(runs):
                if before:
                    before()
                samples.append(measured(command, environment(directory)))
            rows.append((name, statistics.median(s[0] for s in samples), max(s[1] for s in samples)))

        case("cold `check --all` (no cache)", lintel("--all", "--no-cache"))
        # The cache of the base commit, as CI restores it: `check --all` run on the base tree.
        git(project, "checkout", "-q", "--detach", base)
        subprocess.run(lintel("--all"), env=environment(based), stdout=subprocess.DEVNULL, check=False)
        git(project, "checkout", "-q", "--detach", head)

        def restore_base_cache():
            shutil.rmtree(cache, ignore_errors=True)
            shutil.copytree(based, cache)

        case(f"`--diff` of {changed} files, no cache", lintel("--diff", base, "--no-cache"))
        case(f"`--diff` of {changed} files, cache of the base commit", lintel("--diff", base),
             before=restore_base_cache)
        case("exact repeat of that `--diff` (every file cached)", lintel("--diff", base))
        # A staged check after editing one source file (a new edit before each run).
        sources = [line for line in output(project, "ls-files").split()
                   if pathlib.Path(line).suffix in COMMENT and "test" not in line]
        edited = project / sorted(sources)[len(sources) // 2]
        subprocess.run(lintel(), env=environment(cache), stdout=subprocess.DEVNULL, check=False)
        edits = [0]

        def edit():
            edits[0] += 1
            with open(edited, "a") as handle:
                handle.write(f"\n{COMMENT[edited.suffix]} bench edit {edits[0]}\n")
            git(project, "add", str(edited))

        case("staged check after a one-file edit", lintel(), before=edit)
        files = len(output(project, "ls-files").split())
    print(f"{source.name} ({files} files), range {base[:10]}..{head[:10]}, {runs} runs each, "
          f"cores: {os.cpu_count()}")
    for name, wall, rss in rows:
        print(f"  {name:<55} {wall * 1000:7.0f} ms  peak RSS {rss:5.0f} MiB")
    return 0


def bench_project(binary: pathlib.Path, project: pathlib.Path, spec, runs: int) -> int:
    """`check --all` on an existing project against its parse-only floor.

    The two commands run in back-to-back pairs, taking turns to go first, so that this VM's
    drift from minute to minute falls on both alike; each pair gives one ratio."""
    extra = ["--spec", spec] if spec else []
    check_command = [str(binary), "check", "--all", "--no-cache", "--json", "--project", str(project), *extra]
    floor_command = [str(binary), "bench-parse", "--all", "--project", str(project), *extra]
    checks, floors = [], []
    for run in range(runs):
        if run % 2 == 0:
            checks.append(timed(check_command))
            floors.append(timed(floor_command))
        else:
            floors.append(timed(floor_command))
            checks.append(timed(check_command))
    wall_ratios = sorted(check[0] / floor[0] for check, floor in zip(checks, floors))
    cpu_ratios = sorted(check[1] / floor[1] for check, floor in zip(checks, floors))
    fastest_check = min(check[0] for check in checks)
    fastest_floor = min(floor[0] for floor in floors)
    print(f"{project.name}: {runs} pairs (cores: {os.cpu_count()})")
    print(f"  wall: check median {statistics.median(c[0] for c in checks) * 1000:.0f} ms, "
          f"parse-only floor median {statistics.median(f[0] for f in floors) * 1000:.0f} ms")
    print(f"  wall ratio per pair: median {statistics.median(wall_ratios):.2f}x, "
          f"range {wall_ratios[0]:.2f}-{wall_ratios[-1]:.2f}x; fastest against fastest "
          f"{fastest_check * 1000:.0f}/{fastest_floor * 1000:.0f} ms = {fastest_check / fastest_floor:.2f}x")
    print(f"  CPU ratio per pair: median {statistics.median(cpu_ratios):.2f}x, "
          f"range {cpu_ratios[0]:.2f}-{cpu_ratios[-1]:.2f}x")
    return 0


EXTENSIONS = ["py", "ts", "tsx", "js", "go", "java", "cs", "rs", "kt", "swift"]


def adversarial_cases(size: int) -> dict:
    """Files of `size` repetitions that stress error recovery and deep or long trees: the same
    text in every language (mostly syntax errors), and a few language-specific shapes."""
    same = {
        "and-chain": "x" + " && x" * size + "\n",
        "closers": ")" * size + "\n",
        "openers": "{" * size + "\n",
        "less-than": "a<" * size + "\n",
        "wide-call": "f(" + ", ".join(["a"] * size) + ")\n",
        "member-chain": "a" + ".b" * size + "\n",
        "concatenation": 'x = "a"' + ' + "b"' * size + "\n",
        "broken-lines": "x = = 1\n" * size,
        "annotations": "@A " * size + "\n",
        "generics": "List<" * size + "\n",
    }
    cases = {f"{name}.{extension}": text for name, text in same.items() for extension in EXTENSIONS}
    cases.update({
        "missing-names.java": "class A { " + "int = 1; " * size + "}\n",
        "missing-names.kt": "class A { " + "fun f( " * size + "}\n",
        "registrations.cs": "class S { void C(IServiceCollection s) { s" + "".join(
            f".AddScoped<I{i}, C{i}>()" for i in range(size)) + "; } }\n",
        "requests.py": "import requests\n" + "".join(f'requests.get("http://h/x{i}/" + y)\n' for i in range(size)),
        "fetches.ts": "".join(f"fetch(`/api/x{i}/${{id}}`);\n" for i in range(size)),
        # One request URL of thousands of `+` terms, each a constant read: every read's place
        # in the expression is looked at.
        "concatenated-url.ts": "export function f() { const y = '/c'; return fetch('/a'"
        + " + y" * size + "); }\n",
        # `import` outside the import statements, deep in one expression: each is looked up
        # from the root to see whether it starts a statement.
        "import-meta.ts": "import a from 'a';\nexport const x = " + " + ".join(["import.meta.x"] * size) + ";\na();\n",
        "routes.go": "package a\nfunc f(r *gin.Engine) {\n" + "".join(f'r.GET("/x{i}", h)\n' for i in range(size)) + "}\n",
        "imports.rs": "".join(f"use crate::a{i}::B;\n" for i in range(size)),
    })
    # Thousands of calls on one line (minified or generated code): each fact's column counts the
    # characters before it on the line.
    calls = "".join(f"x.y{i}.call(a.b.c, {i}); " for i in range(size))
    # One chain of thousands of calls: every member access below it is a chain's root to try.
    chain = "s" + "".join(f".a{i}()" for i in range(size))
    cases.update({
        "call-chain.java": "class B { void f() { " + chain + "; } }\n",
        "call-chain.cs": "class B { void F() { " + chain + "; } }\n",
        "call-chain.kt": "fun f() { " + chain + " }\n",
    })
    cases.update({
        "one-line.java": "class B { void f() { " + calls + "} }\n",
        "one-line.cs": "class B { void F() { " + calls + "} }\n",
        "one-line.kt": "fun f() { " + calls + "}\n",
        "one-line.swift": "func f() { " + calls + "}\n",
        "one-line.go": "package b\nfunc f() { " + calls + "}\n",
        "one-line.rs": "fn f() { " + calls + "}\n",
        "one-line.py": calls + "\n",
        "one-line.ts": calls + "\n",
    })
    return cases


def bench_adversarial(binary: pathlib.Path, size: int) -> int:
    """`check --all` against `bench-parse --all` on a project of one adversarial file, per case.
    Flags a case whose check takes more than twice its floor plus 0.2 s: extraction work that
    grows faster than the file."""
    slow = 0
    cases = adversarial_cases(size)
    print(f"{'case':28s} {'bytes':>8s} {'floor ms':>9s} {'check ms':>9s}")
    for name, text in cases.items():
        with tempfile.TemporaryDirectory() as directory:
            project = pathlib.Path(directory)
            (project / "src").mkdir()
            (project / "src" / name).write_text(text)
            (project / "architecture.ag").write_text('node n : server\ncomponent App { runs_on: n  paths: "src/**" }\n')
            floor, _ = timed([str(binary), "bench-parse", "--all", "--project", str(project)])
            check, _ = timed([str(binary), "check", "--all", "--no-cache", "--json", "--project", str(project)])
            flag = check > 2 * floor + 0.2
            slow += flag
            print(f"{name:28s} {len(text.encode()):8d} {floor * 1000:9.0f} {check * 1000:9.0f}{'  SLOW' if flag else ''}")
    print(f"{slow} slow case(s) of {len(cases)}")
    return 1 if slow else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, action="append")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", help="a lintel binary to time instead of building target/release/lintel")
    parser.add_argument("--diff", action="store_true", help="time `check --diff` on a 20-file change instead of `check --all`")
    parser.add_argument("--project", help="time an existing project instead of a generated tree")
    parser.add_argument("--spec", help="the spec for --project")
    parser.add_argument("--adversarial", action="store_true", help="time degenerate files against the floor")
    parser.add_argument("--cases", action="store_true", help="with --project: the everyday runs (cold, staged, --diff, repeat)")
    parser.add_argument("--size", type=int, default=4000, help="repetitions per --adversarial file")
    arguments = parser.parse_args()
    sizes = arguments.files or [1000, 10000]
    if arguments.binary:
        binary = pathlib.Path(arguments.binary)
    else:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "engine", "--bin", "lintel"], cwd=ROOT, check=True)
        binary = ROOT / "target" / "release" / "lintel"
    if arguments.adversarial:
        return bench_adversarial(binary, arguments.size)
    if arguments.project and arguments.cases:
        return bench_cases(binary, pathlib.Path(arguments.project).resolve(), arguments.spec, arguments.runs)
    if arguments.project:
        return bench_project(binary, pathlib.Path(arguments.project), arguments.spec, arguments.runs)
    if arguments.diff:
        return bench_diff(binary, sizes[-1] if arguments.files else 10000, arguments.runs)
    for size in sizes:
        with tempfile.TemporaryDirectory() as directory:
            project = pathlib.Path(directory)
            generate(project, size)
            times = []
            for _ in range(arguments.runs):
                started = time.perf_counter()
                result = subprocess.run([str(binary), "check", "--all", "--no-cache", "--json", "--project", str(project)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                times.append(time.perf_counter() - started)
                if result.returncode not in (0, 1):
                    print(f"lintel exited {result.returncode}", file=sys.stderr)
                    return 1
            median = statistics.median(times)
            floor_times = []
            for _ in range(arguments.runs):
                started = time.perf_counter()
                subprocess.run([str(binary), "bench-parse", "--all", "--project", str(project)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
                floor_times.append(time.perf_counter() - started)
            floor = statistics.median(floor_times)
            count = sum(1 for _ in project.rglob("*.ts"))
            print(f"{count} files: median {median * 1000:.0f} ms over {arguments.runs} runs, {count / median:,.0f} files/s; "
                  f"parse-only floor {floor * 1000:.0f} ms, pipeline/floor {median / floor:.2f}x (cores: {os.cpu_count()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
