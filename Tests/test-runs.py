#!/usr/bin/env python3
"""Splits the e2e tier into shards, reads a run's event stream and SwiftPM's build manifest,
for Tests/run-all.sh.

  test-runs.py shards TESTS DIR SHARDS QUIET WEIGHTS QUIET_PARTS
        writes DIR/e2e-1.filter… DIR/e2e-SHARDS.filter, the `swift test --filter` of each shard
        of the e2e tests TESTS (`swift test list` lines), run at once: whole suites, heaviest
        first into the lightest shard; a suite weighs its number of tests, or what WEIGHTS says
        (SUITE:N,…). With more than one shard, QUIET's targets, suites or tests go in none of
        them but in DIR/e2e-quiet-1.filter… DIR/e2e-quiet-QUIET_PARTS.filter, split the same
        way, run at once after the shards with nothing else beside them. QUIET and WEIGHTS are
        comma-separated; a name among them that is no e2e test, suite or target fails the split.
  test-runs.py slowest EVENTS [COUNT]
        the COUNT (10) slowest test cases of an event stream
  test-runs.py issues EVENTS
        every issue an event stream recorded, whole: the test, where, and every line of its
        message and comments (the console shows a comment's first line with the test's
        lines around it; this is what a failed run's log ends with)
  test-runs.py check EVENTS LIMIT SECONDS
        the unit tier's run: fails when a test case took longer than LIMIT seconds, when a
        test's own lines wait for real time (a sleep, a source paced to real time), or when
        nothing ran; lists the ten slowest test cases and the tier's SECONDS
  test-runs.py link-command MANIFEST PRODUCT
        the command (NUL-separated arguments) SwiftPM's build manifest MANIFEST (release.yaml)
        links the executable PRODUCT with

Times are those of a parameterized test's cases, from their start and end events: Swift
Testing's own durations of a test all read as the whole run's (every test starts at once and
waits for a thread of the cooperative pool), and a test without arguments reports no case. So
the bodies are read too: a unit-tier test whose own lines sleep or open a paced source is
refused whatever its time (waiting for work through a wait with a deadline is not a sleep).
"""
import json
import re
import sys


def names(text):
    return [name for name in text.split(",") if name]


def under(pattern, name):
    """Whether the suite or test `pattern` is the target, suite or test `name` or inside it."""
    return pattern == name or pattern.startswith(name + "/") or pattern.startswith(name + ".")


def filter_of(patterns):
    """The `swift test --filter` that picks `patterns` (suites or tests) and nothing else."""
    return "^(" + "|".join(re.escape(pattern) for pattern in patterns) + ")(/|$)" if patterns else ""


def packed(suites, weight, count):
    """`suites` in `count` groups, heaviest first into the lightest group."""
    groups = [[] for _ in range(count)]
    load = [0] * count
    for suite in sorted(suites, key=lambda suite: (-weight[suite], suite)):
        lightest = load.index(min(load))
        groups[lightest].append(suite)
        load[lightest] += weight[suite]
    return groups


def shards(tests_path, directory, count, quiet, weights, quiet_parts):
    count, quiet_parts = int(count), int(quiet_parts)
    tests = sorted({line.strip() for line in open(tests_path, encoding="utf-8") if "." in line})
    if not tests:
        sys.exit(f"test-runs: no e2e tests in {tests_path} (did `swift test list` fail?)")
    suites = {}
    for test in tests:
        suites.setdefault(test.rsplit("/", 1)[0], []).append(test)
    quiet = names(quiet) if count > 1 else []
    weight = {suite: len(members) for suite, members in suites.items()}
    for entry in names(weights):
        suite, value = entry.rsplit(":", 1)
        weight[suite] = max(weight.get(suite, 0), int(value))
    unknown = [name for name in quiet + [entry.rsplit(":", 1)[0] for entry in names(weights)]
               if not any(under(suite, name) for suite in suites)]
    if unknown:
        sys.exit(f"test-runs: no e2e target, suite or test is named {', '.join(unknown)} (renamed?)")
    quiet_suites = [suite for suite in suites if any(under(suite, name) for name in quiet)]
    for number, group in enumerate(packed(quiet_suites, weight, quiet_parts) if quiet_suites else [], 1):
        with open(f"{directory}/e2e-quiet-{number}.filter", "w", encoding="utf-8") as out:
            out.write(filter_of(group))
        print(f"test-runs: e2e after the shards, quiet part {number}: {len(group)} suites, "
              f"{sum(len(suites[suite]) for suite in group)} tests, weight {sum(weight[suite] for suite in group)}")
    for number, group in enumerate(packed([suite for suite in suites if suite not in quiet_suites], weight, count), 1):
        with open(f"{directory}/e2e-{number}.filter", "w", encoding="utf-8") as out:
            out.write(filter_of(group))
        print(f"test-runs: e2e shard {number}: {len(group)} suites, weight {sum(weight[suite] for suite in group)}")


# What waits for the clock in a test's own lines: a sleep (Swift, C or shell), a source paced
# to real time (the sources' and `Recorder`'s default), a Recorder on its own input without
# `paced: false`.
SLEEPS = re.compile(r"\busleep\(|Thread\.sleep\(|Task\.sleep\(|(?<![\w.])sleep\(|nanosleep\(|\bsleep [0-9.]+")
PACED_SOURCES = re.compile(r"\b(ToneSource|FileSource|URLSource)\(")
BODY_END = re.compile(r"^\s*@(Test|Suite)\b|^(struct|final class|class|extension|enum|func|private|fileprivate)\b")


def real_time_waits(tests):
    """(test, file:line, text) for each line of a test's body that waits for real time."""
    found = []
    files = {}
    for test, (path, first) in sorted(tests.items()):
        lines = files.setdefault(path, open(path, encoding="utf-8").read().split("\n"))
        body = [first - 1]
        for index in range(first, len(lines)):
            if BODY_END.search(lines[index]):
                break
            body.append(index)
        code = [(index, lines[index].split("//", 1)[0]) for index in body]
        for position, (index, text) in enumerate(code):
            # A source's call, to its closing parenthesis (it may span lines).
            call, depth = "", 0
            if PACED_SOURCES.search(text):
                for _, more in code[position:]:
                    call += more
                    depth += more.count("(") - more.count(")")
                    if depth <= 0:
                        break
            if SLEEPS.search(text) or (call and "paced: false" not in call):
                found.append((test, f"{path}:{index + 1}", text.strip()))
        statement = " ".join(text for _, text in code)
        if re.search(r"(?<![A-Za-z])Recorder\(", statement) and "input:" in statement \
                and "paced: false" not in statement and "engine:" not in statement:
            found.append((test, f"{path}:{first}", "a Recorder on its own input, paced to real time"))
    return found


def records(events_path):
    """The records of an event stream, one a line; exits saying why when it cannot be read."""
    try:
        lines = open(events_path, encoding="utf-8").readlines()
    except OSError as error:
        sys.exit(f"test-runs: no event stream at {events_path} ({error})")
    return [json.loads(line) for line in lines]


def case_times(events_path):
    """([(seconds, test case)] slowest first, {test id: (file, line)}) of an event stream."""
    started = {}
    cases = []
    tests = {}
    for record in records(events_path):
        if record.get("kind") == "test" and record["payload"].get("kind") == "function":
            location = record["payload"]["sourceLocation"]
            tests[record["payload"]["id"]] = (location["_filePath"], location["line"])
        if record.get("kind") != "event":
            continue
        event = record["payload"]
        if event["kind"] not in ("testCaseStarted", "testCaseEnded"):
            continue
        case = event.get("_testCase") or {}
        key = (event["testID"], case.get("id"))
        if event["kind"] == "testCaseStarted":
            started[key] = event["instant"]["absolute"]
        elif key in started:
            test = re.sub(r"/[^/]+\.swift:\d+:\d+$", "", event["testID"])
            shown = case.get("displayName") or ""
            label = f" ({shown[:60]}…)" if len(shown) > 60 else f" ({shown})" if shown else ""
            cases.append((event["instant"]["absolute"] - started.pop(key), test + label))
    cases.sort(reverse=True)
    return cases, tests


def slowest(events_path, count=10):
    cases, _ = case_times(events_path)
    for time, name in cases[:int(count)]:
        print(f"  {time:6.1f} s  {name}")


def check(events_path, limit, seconds):
    cases, tests = case_times(events_path)
    if not cases:
        sys.exit("test-runs: the unit tier ran no tests")
    print(f"test-runs: the unit tier ran {len(cases)} test cases in {seconds} s after the build; the slowest:")
    for time, name in cases[:10]:
        print(f"  {time:6.2f} s  {name}")
    slow = [(time, name) for time, name in cases if time > limit]
    for time, name in slow:
        print(f"test-runs: {name} took {time:.2f} s, more than the unit tier's {limit:g} s a test case: "
              "if it waits for real time, move it into RealTimeTests", file=sys.stderr)
    for test, place, text in real_time_waits(tests):
        name = re.sub(r"/[^/]+\.swift:\d+:\d+$", "", test)
        print(f"test-runs: {name} waits for real time at {place} ({text}): "
              "move it into RealTimeTests, or wait for the work with a deadline", file=sys.stderr)
        slow.append((0, name))
    if slow:
        sys.exit(1)


def link_command(manifest_path, product):
    """The `args:` of the manifest's command `C.PRODUCT-<triple>-<configuration>.exe`: a JSON list
    on one line."""
    lines = open(manifest_path).read().split("\n")
    # The product's name, then the target triple's four parts and the configuration.
    pattern = re.compile(r'^  "C\.' + re.escape(product) + r'-([^-"]+-){4}(debug|release)\.exe":$')
    for index, line in enumerate(lines):
        if pattern.match(line):
            for field in lines[index + 1:index + 10]:
                if field.strip().startswith("args: "):
                    sys.stdout.write("".join(argument + "\0" for argument in json.loads(field.strip()[len("args: "):])))
                    return
    sys.exit(f"test-runs: no link command for {product} in {manifest_path}")


def issues(events_path):
    for record in records(events_path):
        event = record.get("payload") or {}
        if record.get("kind") != "event" or event.get("kind") != "issueRecorded":
            continue
        location = (event.get("issue") or {}).get("sourceLocation") or {}
        test = re.sub(r"/[^/]+\.swift:\d+:\d+$", "", event.get("testID") or "(no test)")
        known = " (known)" if (event.get("issue") or {}).get("isKnown") else ""
        print(f"  {test} at {location.get('fileID', '?')}:{location.get('line', '?')}{known}:")
        for message in event.get("messages") or []:
            for text in message.get("text", "").splitlines():
                print(f"    {text}")


if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "shards":
        shards(*sys.argv[2:])
    elif 3 <= len(sys.argv) <= 4 and sys.argv[1] == "slowest":
        slowest(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "issues":
        issues(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "link-command":
        link_command(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        check(sys.argv[2], float(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
