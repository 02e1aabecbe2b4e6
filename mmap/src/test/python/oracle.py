"""numpy as an independent oracle for the mmap array format and the .npy conversion.

Run by NumpyOracleIT. Expected elements travel as a plain "bits file": line 1 the numpy dtype
name, line 2 the shape (comma-separated, empty for 0-d), line 3 the raw element bits as unsigned
decimal integers, so that NaN payloads and -0.0 are compared exactly.

  check-mmap FILE BITS        parse the header with struct, np.memmap the elements, compare
  write-mmap FILE DTYPE SHAPE BITS_OUT  header by struct, elements by np.memmap
  save-npy FILE DTYPE SHAPE BITS_OUT [--version 2] [--fortran] [--big-endian]
  check-npy FILE BITS         np.load and compare
  stats-mmap FILE DTYPE COUNT SEED  write COUNT random elements (floats with 1% NaN), print
                              numpy's count, nansum (in float64), nanmin and nanmax of them
  serve                       read commands from stdin, one per line with tab-separated
                              arguments; after each, print its output, then a line of a NUL
                              and its exit status (numpy is imported once for all of them)
"""
import contextlib
import io
import struct
import sys

import numpy as np

DTYPE_IDS = {"float32": 1, "float64": 2, "int32": 3, "int64": 4}
UNSIGNED = {"float32": "<u4", "float64": "<u8", "int32": "<u4", "int64": "<u8"}


def read_bits(path):
    with open(path) as f:
        lines = f.read().split("\n")
    dtype = lines[0]
    shape = tuple(int(x) for x in lines[1].split(",") if x)
    bits = np.array([int(x) for x in lines[2].split()], dtype=UNSIGNED[dtype])
    return dtype, shape, bits


def write_bits(path, array):
    raw = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).view(
        UNSIGNED[array.dtype.name]).reshape(-1)
    with open(path, "w") as f:
        f.write(array.dtype.name + "\n")
        f.write(",".join(str(x) for x in array.shape) + "\n")
        f.write(" ".join(str(int(x)) for x in raw) + "\n")


def sample(dtype, shape):
    count = int(np.prod(shape, dtype=np.int64))
    values = np.arange(count, dtype=np.float64) * 1.25 - 3
    array = values.astype(dtype)
    if np.dtype(dtype).kind == "f" and count >= 3:
        array[0] = np.nan
        array[1] = -0.0
        array[2] = np.inf
    if np.dtype(dtype).kind == "i" and count >= 2:
        array[0] = np.iinfo(dtype).min
        array[1] = np.iinfo(dtype).max
    return array.reshape(shape)


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(1)


def check_mmap(path, bits_path):
    dtype, shape, bits = read_bits(bits_path)
    with open(path, "rb") as f:
        header = f.read(64)
    magic, version, dtype_id, ndim, total = struct.unpack_from("<4sBBHQ", header, 0)
    dims = struct.unpack_from("<%dQ" % ndim, header, 16)
    if magic != b"MMAP" or version != 1 or dtype_id != DTYPE_IDS[dtype]:
        fail("header %r %d %d" % (magic, version, dtype_id))
    if tuple(dims) != shape or total != int(np.prod(shape, dtype=np.int64)):
        fail("shape %r total %d, expected %r" % (dims, total, shape))
    if any(header[16 + 8 * ndim:]):
        fail("non-zero padding")
    if total == 0:
        return
    array = np.memmap(path, dtype=np.dtype(dtype).newbyteorder("<"), mode="r", offset=64, shape=shape)
    got = np.asarray(array).view(UNSIGNED[dtype]).reshape(-1)
    if not np.array_equal(got, bits):
        fail("elements differ: %r vs %r" % (got[:10], bits[:10]))


def write_mmap(path, dtype, shape, bits_out):
    array = sample(dtype, shape)
    header = struct.pack("<4sBBHQ", b"MMAP", 1, DTYPE_IDS[dtype], len(shape), array.size)
    header += struct.pack("<%dQ" % len(shape), *shape)
    header += b"\0" * (64 - len(header))
    with open(path, "wb") as f:
        f.write(header)
        f.truncate(64 + array.nbytes)
    if array.size:
        target = np.memmap(path, dtype=np.dtype(dtype).newbyteorder("<"), mode="r+", offset=64,
                           shape=shape)
        target[...] = array
        target.flush()
        del target
    write_bits(bits_out, array)


def save_npy(path, dtype, shape, bits_out, flags):
    array = sample(dtype, shape)
    if "--fortran" in flags:
        array = np.asfortranarray(array)
    if "--big-endian" in flags:
        array = array.astype(np.dtype(dtype).newbyteorder(">"))
    version = (2, 0) if "--version" in flags else (1, 0)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=version)
    write_bits(bits_out, sample(dtype, shape))


def check_npy(path, bits_path):
    dtype, shape, bits = read_bits(bits_path)
    array = np.load(path)
    if array.dtype != np.dtype(dtype) or array.shape != shape:
        fail("np.load gives %s %r, expected %s %r" % (array.dtype, array.shape, dtype, shape))
    if not array.flags.c_contiguous:
        fail("not C-contiguous")
    got = array.view(UNSIGNED[dtype]).reshape(-1)
    if not np.array_equal(got, bits):
        fail("elements differ: %r vs %r" % (got[:10], bits[:10]))


def stats_mmap(path, dtype, count, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        array = (rng.standard_normal(count) * 1000).astype(dtype)
        array[rng.random(count) < 0.01] = np.nan
        present = array[~np.isnan(array)]
    else:
        info = np.iinfo(dtype)
        array = rng.integers(info.min // 4, info.max // 4, count, dtype=dtype)
        present = array
    header = struct.pack("<4sBBHQ", b"MMAP", 1, DTYPE_IDS[dtype], 1, count) + struct.pack("<Q", count)
    with open(path, "wb") as f:
        f.write(header + b"\0" * (64 - len(header)))
        f.write(array.astype(np.dtype(dtype).newbyteorder("<")).tobytes())
    if present.size == 0:
        print(0, "0.0", "NaN", "NaN")
        return
    print(present.size, repr(float(np.sum(present, dtype=np.float64))), repr(float(np.min(present))),
          repr(float(np.max(present))))


def parse_shape(text):
    return tuple(int(x) for x in text.split(",") if x)


def run(command, args):
    if command == "check-mmap":
        check_mmap(args[0], args[1])
    elif command == "write-mmap":
        write_mmap(args[0], args[1], parse_shape(args[2]), args[3])
    elif command == "save-npy":
        save_npy(args[0], args[1], parse_shape(args[2]), args[3], args[4:])
    elif command == "check-npy":
        check_npy(args[0], args[1])
    elif command == "stats-mmap":
        stats_mmap(args[0], args[1], int(args[2]), int(args[3]))
    else:
        fail("unknown command " + command)


def serve():
    for line in sys.stdin:
        words = line.rstrip("\n").split("\t")
        output = io.StringIO()
        status = 0
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                run(words[0], words[1:])
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else 1
            except Exception as e:
                print("%s: %s" % (type(e).__name__, e))
                status = 1
        sys.stdout.write(output.getvalue() + "\0%d\n" % status)
        sys.stdout.flush()


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve()
    else:
        run(sys.argv[1], sys.argv[2:])
