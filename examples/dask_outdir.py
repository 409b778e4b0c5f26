# SPDX-License-Identifier: MIT
"""What examples/dask_planes.py and examples/dask_pgn.py share on the client side: readable
inputs, an empty OUTDIR (or cleared with --overwrite), the cluster's client, and a failed run
said in one line with no manifest. (The tasks that run on workers stay in each script: a worker imports the script's
functions by value, not this module.)"""
import os
import sys


def prepare(outdir, overwrite):
    """An empty OUTDIR, or a message why not."""
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        return "%s is not a directory" % outdir
    os.makedirs(outdir, exist_ok=True)
    entries = os.listdir(outdir)
    if entries and not overwrite:
        return "%s is not empty (%d entries): give --overwrite to clear it" % (outdir, len(entries))
    for name in entries:
        if os.path.isdir(os.path.join(outdir, name)):
            return "%s holds a directory, %s: not clearing it" % (outdir, name)
    for name in entries:
        os.remove(os.path.join(outdir, name))
    return None


def client_of(args):
    """A Dask client of the scheduler at --scheduler, or of a LocalCluster of --workers worker
    processes on this machine."""
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        return Client(args.scheduler)
    return Client(LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None))


def run_checked(run, args, inputs):
    """Checks that every input is readable and OUTDIR usable, then run(args): the exit status,
    every problem said in one line on standard error."""
    name = os.path.basename(sys.argv[0])
    for path in inputs:
        try:
            with open(path, "rb"):
                pass
        except OSError as e:
            print("%s: cannot read %s: %s" % (name, path, e.strerror), file=sys.stderr)
            return 1
    problem = prepare(args.outdir, args.overwrite)
    if problem:
        print("%s: %s" % (name, problem), file=sys.stderr)
        return 1
    try:
        run(args)
    except Exception as e:  # a worker's failure, a lost cluster: one line, and no manifest
        print("%s: failed, %s is incomplete (no manifest.json): %s: %s"
              % (name, args.outdir, type(e).__name__, str(e).splitlines()[0] if str(e) else ""),
              file=sys.stderr)
        return 1
    return 0
