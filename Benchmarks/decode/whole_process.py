#!/usr/bin/env python3
"""Times whole processes: each command's wall and CPU seconds from start to exit, output to a file.

Usage: python3 whole_process.py REPEAT OUT NAME=COMMAND... 

The commands run in turns (A, B, A, B…) REPEAT times each, so a load that comes and goes falls on both; each
writes its stdout to OUT (overwritten every run) and its stderr nowhere. Prints one JSON line per command: median
and best wall seconds, median CPU seconds (user + system, every thread), and for each command after the first its
median against the first's (how many times faster the first is).
"""

import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

import orjson


def _run(command: list[str], out: str) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "wb") as sink:
        subprocess.run(command, stdout=sink, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    repeat, out = int(sys.argv[1]), sys.argv[2]
    commands = [arg.split("=", 1) for arg in sys.argv[3:]]
    walls: dict[str, list[float]] = {name: [] for name, _ in commands}
    cpus: dict[str, list[float]] = {name: [] for name, _ in commands}
    for _ in range(repeat):
        for name, command in commands:
            wall, cpu = _run(shlex.split(command), out)
            walls[name].append(wall)
            cpus[name].append(cpu)
    first = statistics.median(walls[commands[0][0]])
    for name, command in commands:
        median = statistics.median(walls[name])
        result = {
            "process": name, "command": command, "runs": repeat, "medianSeconds": round(median, 3),
            "bestSeconds": round(min(walls[name]), 3), "medianCPUSeconds": round(statistics.median(cpus[name]), 3),
        }
        if name != commands[0][0]:
            result["firstIsFaster"] = round(median / first, 2)
        print(orjson.dumps(result).decode())
    os.remove(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
