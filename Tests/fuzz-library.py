#!/usr/bin/env python3
"""Seeded fuzzing of the library's readers: mutated sound files of every format dropped into a
library, then listed, analysed, played, exported to every format, trimmed, enhanced and
transcribed by the built `voicememo`, each command with a time limit.

Prints one JSON object: what ran, and every finding (a command ended by a signal or with
132/134/139, one that hit its time limit, the most memory any command used, files written
outside the places the commands may write). The test that runs it (FuzzedLibraryTests)
asserts on that object; this script judges nothing itself.

    fuzz-library.py BINARY SEEDS_DIR WORK_DIR --per-format N --seed S
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import time

EXPORT_FORMATS = ["wav", "flac", "ogg", "opus", "mp3", "m4a", "caf", "aiff"]
INTERESTING = [0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four mutations of a file's bytes: bit flips, interesting bytes, a huge or zero
    32-bit field near the start (a header's sizes and counts), a cut, a repeated block."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(6)
        if not out:
            break
        if kind == 0:
            for _ in range(rng.randint(1, 8)):
                index = rng.randrange(len(out))
                out[index] ^= 1 << rng.randrange(8)
        elif kind == 1:
            for _ in range(rng.randint(1, 8)):
                out[rng.randrange(len(out))] = rng.choice(INTERESTING)
        elif kind == 2:
            offset = rng.randrange(0, max(1, min(len(out) - 4, 96)))
            value = rng.choice([0, 1, 0x7FFFFFFF, 0xFFFFFFFF, 0x80000000, rng.getrandbits(32)])
            out[offset:offset + 4] = value.to_bytes(4, rng.choice(["little", "big"]))
        elif kind == 3:
            out = out[: rng.randrange(len(out))]
        elif kind == 4:
            start = rng.randrange(len(out))
            block = out[start:start + rng.randint(1, 512)]
            at = rng.randrange(len(out))
            out[at:at] = block * rng.randint(1, 8)
        else:
            # Float samples that are not numbers, where a float file keeps its samples.
            for _ in range(rng.randint(1, 4)):
                at = rng.randrange(len(out))
                out[at:at + 4] = rng.choice([b"\x00\x00\xc0\x7f", b"\x00\x00\x80\x7f", b"\xff\xff\x7f\x7f"])
    return bytes(out)


def snapshot(folder: str) -> dict:
    """Every file under `folder` with its size and modification time."""
    files = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            try:
                status = os.lstat(path)
            except FileNotFoundError:
                continue
            files[path] = (status.st_size, status.st_mtime_ns)
    return files


class Runner:
    def __init__(self, binary: str, environment: dict):
        self.binary = binary
        self.environment = environment
        self.commands = 0
        self.findings = []
        self.max_rss_kb = 0
        self.max_rss_command = None

    def run(self, arguments: list, limit: float) -> int:
        """Runs voicememo ARGUMENTS; notes a signal, a crash status or a time-out."""
        self.commands += 1
        process = subprocess.Popen(
            [self.binary] + arguments, env=self.environment, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + limit
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() > deadline:
                timed_out = True
                os.killpg(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.01)
        error = process.stderr.read().decode("utf-8", "replace")[-400:]
        process.stderr.close()
        if usage.ru_maxrss > self.max_rss_kb:
            self.max_rss_kb = usage.ru_maxrss
            self.max_rss_command = arguments
        code = os.waitstatus_to_exitcode(status)
        if timed_out:
            self.findings.append({"kind": "timeout", "command": arguments, "stderr": error})
        elif code < 0 or code in (132, 134, 136, 139):
            self.findings.append({"kind": "crash", "status": code, "command": arguments, "stderr": error})
        return code


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("seeds")
    parser.add_argument("work")
    parser.add_argument("--per-format", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)

    library = os.path.join(options.work, "library")
    exports = os.path.join(options.work, "exports")
    outside = os.path.join(options.work, "outside")
    os.makedirs(exports, exist_ok=True)
    os.makedirs(outside, exist_ok=True)
    for index in range(5):
        with open(os.path.join(outside, f"keep-{index}.txt"), "w") as handle:
            handle.write("must stay as it is\n")
    environment = {
        "HOME": os.path.join(options.work, "home"),
        "VOICEMEMO_HOME": library,
        "XDG_CONFIG_HOME": os.path.join(options.work, "config"),
        "XDG_DATA_HOME": os.path.join(options.work, "data"),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
    }
    for name in ("ALSA_CONFIG_PATH",):
        if name in os.environ:
            environment[name] = os.environ[name]
    os.makedirs(environment["XDG_CONFIG_HOME"] + "/voicememo", exist_ok=True)
    with open(environment["XDG_CONFIG_HOME"] + "/voicememo/config", "w") as handle:
        handle.write("transcribe = manual\n")

    seeds = sorted(os.listdir(options.seeds))
    made = 0
    for seed in seeds:
        data = open(os.path.join(options.seeds, seed), "rb").read()
        stem, extension = os.path.splitext(seed)
        for index in range(options.per_format):
            with open(os.path.join(library, f"fuzz-{stem}-{index:03d}{extension}"), "wb") as handle:
                handle.write(mutate(data, rng))
            made += 1
    before = snapshot(outside)
    runner = Runner(options.binary, environment)

    status = runner.run(["list", "--json"], 600)
    listing = subprocess.run(
        [options.binary, "list", "--json"], env=environment, capture_output=True, timeout=120)
    memos = json.loads(listing.stdout or b"[]") if listing.returncode == 0 else []
    for position, memo in enumerate(memos):
        memo_id = str(memo["id"])
        runner.run(["analyze", memo_id], 30)
        target = EXPORT_FORMATS[position % len(EXPORT_FORMATS)]
        runner.run(["export", memo_id, os.path.join(exports, f"{memo_id}.{target}"), "--force"], 60)
        if position % 4 == 0:
            runner.run(["play", memo_id, "--device", "null"], 30)
        if position % 5 == 1:
            runner.run(["trim", memo_id, "--from", "0.1", "--to", "0.6"], 60)
        if position % 12 == 2:
            runner.run(["enhance", memo_id], 120)
        if position % 25 == 3:
            runner.run(["transcribe", memo_id], 120)
    final = runner.run(["list", "--json"], 120)

    after = snapshot(outside)
    print(json.dumps({
        "files": made,
        "memos": len(memos),
        "commands": runner.commands,
        "first_list_status": status,
        "last_list_status": final,
        "max_rss_kb": runner.max_rss_kb,
        "max_rss_command": runner.max_rss_command,
        "outside_changed": sorted(set(before.items()) ^ set(after.items())),
        "findings": runner.findings,
    }))


if __name__ == "__main__":
    main()
