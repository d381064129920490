"""The least any Python writer of a run summary must do (issue #16's peer for `npm run bench:summary`): parse every
row of the rollouts file with json.loads and list the verifier folder it names with os.listdir. Prints one JSON
line: wall and CPU milliseconds, peak RSS in MB and the rows read.

    python3 bench/summaryPeer.py <rollouts.jsonl>
"""
import json
import os
import resource
import sys
import time


def main(path: str) -> None:
    t0 = time.perf_counter()
    rows = 0
    with open(path, 'rb') as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            rows += 1
            d = row.get('verifier_logs_dir')
            if d:
                try:
                    os.listdir(d)
                except OSError:
                    pass
    ms = (time.perf_counter() - t0) * 1000
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"ms": ms, "cpuMs": (ru.ru_utime + ru.ru_stime) * 1000, "maxRssMb": ru.ru_maxrss / 1024, "rows": rows}))


if __name__ == '__main__':
    main(sys.argv[1])
