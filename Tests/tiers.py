#!/usr/bin/env python3
"""The test tiers of Tests/tiers.txt, for Tests/run-all.sh.

  tiers.py split TIERS TESTS DIR [SHARDS [ALONE [QUIET]]]
                                      puts each test of TESTS (`swift test list`) in its tier:
                                      DIR/unit.tests, DIR/e2e.tests, and DIR/e2e.filter, the
                                      regular expression that picks the e2e tier's tests (the
                                      unit tier skips it); and the e2e tier in SHARDS (1 unless
                                      told) shards DIR/e2e-1.filter…, run at once, one `swift
                                      test` each: ALONE's suites (comma-separated) each alone
                                      in a shard of its own, the rest by whole suites, longest
                                      first into the lightest shard (see SUITE_WEIGHTS); with
                                      more than one shard, QUIET's targets, suites or tests
                                      (comma-separated) go in none of them but in
                                      DIR/e2e-quiet.filter, run after the shards with nothing
                                      beside them (real-time tests that a loaded machine starves)
  tiers.py slowest EVENTS [COUNT]     the COUNT (10) slowest test cases of a run's event stream
  tiers.py check EVENTS LIMIT SECONDS the unit tier's run, from its event stream (`swift test
                                      --experimental-event-stream-output`): fails when a test
                                      case took longer than LIMIT seconds, when a unit-tier
                                      test's body waits for real time (a sleep, a source paced
                                      to real time), or when nothing ran; lists the ten slowest
                                      test cases and the tier's SECONDS

`split` fails when a NAME of TIERS matches no test (a suite renamed or gone: its tests would
otherwise change tier without anyone deciding it).

Times are those of a parameterized test's cases, from their start and end events: Swift
Testing's own durations of a test here all read as the whole run's (every test starts at once
and waits for a thread of the cooperative pool), and a test without arguments reports no case.
So the bodies are read too: a unit-tier test whose own lines sleep or open a paced source is
refused whatever its time (waiting for work through a wait with a deadline is not a sleep).
"""
import json
import re
import sys

TIERS = ("unit", "e2e")


def read_tiers(path):
    """NAME -> tier, from the lines `NAME TIER WHY…` (# starts a comment)."""
    tiers = {}
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) < 3 or words[1] not in TIERS:
            sys.exit(f"{path}:{number}: expected `NAME unit|e2e WHY…`, got: {line.strip()}")
        if words[0] in tiers:
            sys.exit(f"{path}:{number}: {words[0]} is named twice")
        tiers[words[0]] = words[1]
    return tiers


def read_tests(path):
    """The tests of a `swift test list`: `Target.Suite/test(labels:)` (or `Target.test()`)."""
    return sorted({line.strip() for line in open(path, encoding="utf-8")
                   if re.match(r"^[A-Za-z_][A-Za-z0-9_]*\.[^ ]+$", line.strip())})


def names_of(test):
    """What may name `test` in TIERS, longest first: the test, its suites, its target."""
    target, rest = test.split(".", 1)
    parts = rest.split("/")
    names = [target + "." + "/".join(parts[:end]) for end in range(len(parts), 0, -1)]
    return names + [target]


def split(tiers_path, tests_path, directory, shards=1, alone="", quiet=""):
    shards = int(shards)
    tiers = read_tiers(tiers_path)
    tests = read_tests(tests_path)
    if not tests:
        sys.exit(f"tiers: no tests in {tests_path} (did `swift test list` fail?)")
    used = set()
    chosen = {tier: [] for tier in TIERS}
    for test in tests:
        name = next((name for name in names_of(test) if name in tiers), None)
        used.add(name)
        chosen[tiers[name] if name else "unit"].append(test)
    unknown = [name for name in tiers if name not in used]
    if unknown:
        sys.exit(f"tiers: {tiers_path} names what is no test, suite or target (renamed?): {', '.join(unknown)}")
    for tier in TIERS:
        with open(f"{directory}/{tier}.tests", "w", encoding="utf-8") as out:
            out.write("".join(test + "\n" for test in chosen[tier]))
    # Whole suites where every test of theirs is e2e, else the tests one by one; `/` or the
    # end after a name keeps `Foo` from matching `FooBar`.
    e2e = set(chosen["e2e"])
    patterns = []
    for test in chosen["e2e"]:
        suite = test.rsplit("/", 1)[0]
        pattern = suite if all(t in e2e for t in tests if t.startswith(suite + "/")) else test
        if pattern not in patterns:
            patterns.append(pattern)
    with open(f"{directory}/e2e.filter", "w", encoding="utf-8") as out:
        out.write(filter_of(patterns))
    print(f"tiers: {len(chosen['unit'])} tests in the unit tier, {len(chosen['e2e'])} in the e2e tier ({tiers_path})")
    # QUIET names targets, suites or tests: every e2e pattern that is one of them or inside one.
    quiet_names = [name for name in quiet.split(",") if name] if shards > 1 else []
    def is_quiet(pattern):
        return any(is_quiet_under(pattern, name) for name in quiet_names)
    missing = [name for name in quiet_names if not any(is_quiet_under(pattern, name) for pattern in patterns)]
    if missing:
        sys.exit(f"tiers: the e2e tests to run quietly name no e2e target, suite or test (renamed?): {', '.join(missing)}")
    quiet_patterns = [pattern for pattern in patterns if is_quiet(pattern)]
    with open(f"{directory}/e2e-quiet.filter", "w", encoding="utf-8") as out:
        out.write(filter_of(quiet_patterns) if quiet_patterns else "")
    quiet_tests = [test for test in chosen["e2e"]
                   if any(test == pattern or test.startswith(pattern + "/") for pattern in quiet_patterns)]
    if quiet_patterns:
        print(f"tiers: e2e after the shards, alone: {len(quiet_patterns)} suites or tests, {len(quiet_tests)} tests")
    shard([test for test in chosen["e2e"] if test not in quiet_tests],
          [pattern for pattern in patterns if pattern not in quiet_patterns], shards,
          [name for name in alone.split(",") if name], directory, quiet_patterns)


def is_quiet_under(pattern, name):
    """Whether the e2e `pattern` (a suite or a test) is `name` (a target, suite or test) or inside it."""
    return pattern == name or pattern.startswith(name + "/") or pattern.startswith(name + ".")


def filter_of(patterns):
    """The `swift test --filter` that picks `patterns` (suites or tests) and nothing else."""
    return "^(" + "|".join(re.escape(pattern) for pattern in patterns) + ")(/|$)"


# The e2e suites that take much longer than their number of tests says, in "tests' worth" (a
# typical e2e test takes a few seconds): they wait out minutes of real time (kill loops,
# streams, stalls) or burn CPU. A name here that is no suite any more is only reported.
SUITE_WEIGHTS = {
    "EndToEndTests.KillNineLoopTests": 20,
    "EndToEndTests.IcecastStreamTests": 15,
    "AudioTests.InputStallTests": 15,
    "TranscriptionTests.RecognizerTests": 12,
    "EndToEndTests.StreamPlayTests": 20,
    "EndToEndTests.StreamRecordTests": 10,
    "EndToEndTests.TranscriptionAppTests": 10,
}


def shard(tests, patterns, shards, alone, directory, quiet_patterns=()):
    """Writes DIR/e2e-N.filter for N in 1…shards: every e2e test in exactly one of them."""
    weight = {pattern: sum(1 for test in tests if test == pattern or test.startswith(pattern + "/"))
              for pattern in patterns}
    for name in SUITE_WEIGHTS:
        if name in weight:
            weight[name] = max(weight[name], SUITE_WEIGHTS[name])
        elif name not in quiet_patterns:
            print(f"tiers: SUITE_WEIGHTS names {name}, which is no e2e suite (renamed?)", file=sys.stderr)
    missing = [name for name in alone if name not in weight]
    if missing:
        sys.exit(f"tiers: the suites to run alone are no e2e suites (renamed?): {', '.join(missing)}")
    if len(alone) >= shards and shards > 1:
        sys.exit(f"tiers: {len(alone)} suites to run alone need more than {shards} shards")
    groups = [[name] for name in alone] if shards > 1 else []
    rest = [[] for _ in range(shards - len(groups))]
    load = [0] * len(rest)
    for pattern in sorted((p for p in patterns if p not in alone or shards == 1), key=lambda p: (-weight[p], p)):
        lightest = load.index(min(load))
        rest[lightest].append(pattern)
        load[lightest] += weight[pattern]
    groups += rest
    covered = sorted(test for group in groups for pattern in group for test in tests
                     if test == pattern or test.startswith(pattern + "/"))
    if covered != sorted(tests):
        sys.exit("tiers: the e2e shards do not hold every e2e test exactly once")
    for number, group in enumerate(groups, 1):
        with open(f"{directory}/e2e-{number}.filter", "w", encoding="utf-8") as out:
            out.write(filter_of(group))
        count = sum(weight[pattern] for pattern in group)
        print(f"tiers: e2e shard {number}: {len(group)} suites or tests, weight {count}")


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


def case_times(events_path):
    """([(seconds, test case)] slowest first, {test id: (file, line)}) of an event stream."""
    started = {}
    cases = []
    tests = {}
    try:
        lines = open(events_path, encoding="utf-8").readlines()
    except OSError as error:
        sys.exit(f"tiers: no event stream at {events_path} ({error})")
    for line in lines:
        record = json.loads(line)
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
        sys.exit("tiers: the unit tier ran no tests")
    print(f"tiers: the unit tier ran {len(cases)} test cases in {seconds} s after the build; the slowest:")
    for time, name in cases[:10]:
        print(f"  {time:6.2f} s  {name}")
    slow = [(time, name) for time, name in cases if time > limit]
    for time, name in slow:
        print(f"tiers: {name} took {time:.2f} s, more than the unit tier's {limit:g} s a test case: "
              "if it waits for real time, name it e2e in Tests/tiers.txt", file=sys.stderr)
    waits = real_time_waits(tests)
    for test, place, text in waits:
        name = re.sub(r"/[^/]+\.swift:\d+:\d+$", "", test)
        print(f"tiers: {name} waits for real time at {place} "
              f"({text}): name it e2e in Tests/tiers.txt, or wait for the work with a deadline", file=sys.stderr)
    if slow or waits:
        sys.exit(1)


if __name__ == "__main__":
    if 5 <= len(sys.argv) <= 8 and sys.argv[1] == "split":
        split(*sys.argv[2:])
    elif 3 <= len(sys.argv) <= 4 and sys.argv[1] == "slowest":
        slowest(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        check(sys.argv[2], float(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
