#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<name>/seed-* for the libFuzzer targets in fuzz/targets/.

Every seed is synthetic (built here from the format rules, nothing copied from a real table) and
small. Run from anywhere: `python3 fuzz/corpus/make_seeds.py`. Existing seed-* files are
rewritten; other files (regression inputs, named regress-*) are left alone.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
MAGIC = 1681511377


def le32(v): return struct.pack("<I", v)
def le64(v): return struct.pack("<Q", v)
def be32(v): return struct.pack(">I", v)


def z85_encode(data: bytes) -> str:
    data = data + b"\0" * (-len(data) % 4)
    out = []
    for i in range(0, len(data), 4):
        v = struct.unpack(">I", data[i:i + 4])[0]
        digits = []
        for _ in range(5):
            digits.append(Z85[v % 85])
            v //= 85
        out.append("".join(reversed(digits)))
    return "".join(out)


def z85_digits(v: int, n: int) -> str:
    digits = []
    for _ in range(n):
        digits.append(Z85[v % 85])
        v //= 85
    return "".join(reversed(digits))


def roaring32(values, runs=False):
    """The 32-bit portable Roaring bitmap of `values`; runs=True writes every container as runs."""
    groups = {}
    for v in sorted(set(values)):
        groups.setdefault(v >> 16, []).append(v & 0xFFFF)
    keys = sorted(groups)
    n = len(keys)
    datas = []
    for k in keys:
        lows = groups[k]
        if runs:
            spans = []
            for x in lows:
                if spans and spans[-1][1] == x - 1:
                    spans[-1][1] = x
                else:
                    spans.append([x, x])
            datas.append(struct.pack("<H", len(spans)) +
                         b"".join(struct.pack("<HH", s, e - s) for s, e in spans))
        elif len(lows) > 4096:
            words = [0] * 1024
            for x in lows:
                words[x >> 6] |= 1 << (x & 63)
            datas.append(b"".join(struct.pack("<Q", w) for w in words))
        else:
            datas.append(b"".join(struct.pack("<H", x) for x in lows))
    headers = b"".join(struct.pack("<HH", k, len(groups[k]) - 1) for k in keys)
    if runs and n > 0:
        head = le32(12347 | ((n - 1) << 16)) + bytes([0xFF] * ((n + 7) // 8))
        if n % 8:
            head = head[:-1] + bytes([(1 << (n % 8)) - 1])
        has_offsets = n >= 4
    else:
        head = le32(12346) + le32(n)
        has_offsets = True
    head += headers
    offsets = b""
    if has_offsets:
        pos = len(head) + 4 * n
        for d in datas:
            offsets += le32(pos)
            pos += len(d)
    return head + offsets + b"".join(datas)


def bitmap(rows, runs=False, empty_keys=()):
    """Delta's portable RoaringBitmapArray of 64-bit `rows` (plus empty buckets at empty_keys)."""
    buckets = {}
    for r in rows:
        buckets.setdefault(r >> 32, []).append(r & 0xFFFFFFFF)
    for k in empty_keys:
        buckets.setdefault(k, [])
    out = le32(MAGIC) + le64(len(buckets))
    for k in sorted(buckets):
        out += le32(k) + roaring32(buckets[k], runs)
    return out


def dv_file(payloads):
    out = b"\x01"
    offsets = []
    for p in payloads:
        offsets.append(len(out))
        out += be32(len(p)) + p + be32(zlib.crc32(p) & 0xFFFFFFFF)
    return out, offsets


def write(name, seeds):
    folder = os.path.join(HERE, name)
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        if f.startswith("seed-"):
            os.remove(os.path.join(folder, f))
    for label, data in seeds:
        if isinstance(data, str):
            data = data.encode()
        with open(os.path.join(folder, "seed-" + label), "wb") as fh:
            fh.write(data)


UUID = bytes.fromhex("3f2504e04f8911d39a0c0305e82c3301")
UUID_Z85 = z85_encode(UUID)
ROW_MAX = (0x7FFFFFFE << 32) | 0x80000000


def bitmap_seeds():
    return [
        ("empty", b"\0" + bitmap([])),
        ("three-rows-two-buckets", b"\0" + bitmap([0, 5, (1 << 32) + 7])),
        ("one-row", b"\0" + bitmap([3])),
        ("runs", b"\0" + bitmap(list(range(0, 100)) + list(range(1000, 2000)), runs=True)),
        ("runs-four-containers", b"\0" + bitmap([c << 16 | x for c in range(4) for x in range(10, 20)], runs=True)),
        ("bitset", b"\0" + bitmap(list(range(0, 10000, 2)))),
        ("max-row", b"\0" + bitmap([ROW_MAX])),
        ("empty-bucket", b"\0" + bitmap([1 << 32], empty_keys=[0])),
        ("native-magic", b"\0" + le32(MAGIC - 1) + le64(0)),
        ("inner-array", b"\1" + roaring32([1, 2, 3, 70000])),
        ("inner-runs", b"\1" + roaring32([c << 16 | x for c in range(5) for x in range(7)], runs=True)),
        ("inner-empty", b"\1" + roaring32([])),
        ("two-buckets", bytes([2 << 2 | 2]) + le32(0) + roaring32([9]) + le32(3) + roaring32([0, 65535], runs=True)),
        ("count-and-buckets", b"\3" + le64(1) + le32(0x7FFFFFFE) + roaring32([0x80000000])),
    ]


def z85_seeds():
    hello = b"HelloWorld"
    six = b"abcdef"
    hash_tail = z85_encode(six[:4]) + "##" + z85_digits(int.from_bytes(six[4:], "big"), 3)
    return [
        ("uuid", b"\0" + be32(16) + UUID_Z85.encode()),
        ("hello-padded", b"\0" + be32(len(hello)) + z85_encode(hello).encode()),
        ("eight-bytes-fit", b"\1" + be32(0) + z85_encode(b"\x86\x4f\xd2\x6f\xb5\x59\xf7\x5b").encode()),
        ("six-bytes-fit", bytes([1 | 2 << 1]) + be32(0) + z85_encode(six).encode()),
        ("hash-tail", b"\0" + be32(6) + hash_tail.encode()),
        ("uuid-text", b"\0" + be32(0) + b"3f2504e0-4f89-11d3-9a0c-0305e82c3301"),
        ("uuid-text-upper", b"\0" + be32(0) + b"3F2504E0-4F89-11D3-9A0C-0305E82C3301"),
        ("empty", b"\0" + be32(0)),
        ("huge-size", b"\2" + be32(0) + z85_encode(b"abcd").encode()),
    ]


def dv_file_seeds():
    small = bitmap([0, 5])
    runs = bitmap(list(range(100, 200)), runs=True)
    one, _ = dv_file([small])
    two, offs = dv_file([small, runs])
    empty = bitmap([])
    bitset = bitmap([(1 << 32) | x for x in range(0, 12000, 2)])
    three, offs3 = dv_file([empty, small, bitmap([1 << 32])])
    return [
        ("one-record", be32(1) + be32(len(small)) + one),
        ("second-record", be32(offs[1]) + be32(len(runs)) + two),
        ("first-of-two", be32(offs[0]) + be32(len(small)) + two),
        ("empty-bitmap", be32(offs3[0]) + be32(len(empty)) + three),
        ("last-of-three", be32(offs3[2]) + be32(len(bitmap([1 << 32]))) + three),
        ("version-only", be32(1) + be32(0) + b"\x01"),
        # Top bit of the offset set: the harness rewrites the CRC (these CRCs are zero).
        ("fix-crc-runs", be32(0x80000000 | 1) + be32(len(runs)) + b"\x01" + be32(len(runs)) + runs + be32(0)),
        ("fix-crc-bitset", be32(0x80000000 | 1) + be32(len(bitset)) + b"\x01" + be32(len(bitset)) + bitset + be32(0)),
    ]


def composition_seeds():
    info = '[{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":10}]'
    return [
        ("basic", '["part-00000-abc.snappy.parquet"]\0' + info),
        ("fields-reordered", '["x=1/part-1.parquet"]\0[{"sourceNumPhysicalRecords":5,"extra":{"a":[1,2]},"rowOffsetInTarget":42}]'),
        ("escapes", '[ "p\\u00e9\\ud83d\\ude00 \\"q\\"\\/r.parquet" ]\0 [ { "rowOffsetInTarget" : 7 , "sourceNumPhysicalRecords" : 9223372036854775807 } ] '),
        ("two-outputs", '["a","b"]\0' + info),
        ("negative", '["a"]\0[{"rowOffsetInTarget":-1,"sourceNumPhysicalRecords":1}]'),
        ("no-info", '["a"]'),
    ]


def commit_seeds():
    inline = bitmap([1, 2, 3])
    commit_info = ('{"commitInfo":{"timestamp":1700000000000,"operation":"DELETE","operationParameters":'
                   '{"predicate":"[\\"(id < 2)\\"]"},"readVersion":0,"isolationLevel":"Serializable",'
                   '"isBlindAppend":false,"operationMetrics":{"numDeletedRows":"2"},"engineInfo":"fuzz-seed",'
                   '"txnId":"0b5c1e2a-0000-4000-8000-000000000000"}}')
    protocol = ('{"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],'
                '"writerFeatures":["deletionVectors","rowTracking"]}}')
    metadata = ('{"metaData":{"id":"test-id","name":"t","format":{"provider":"parquet","options":{}},'
                '"schemaString":"{\\"type\\":\\"struct\\",\\"fields\\":[{\\"name\\":\\"id\\",\\"type\\":\\"long\\",'
                '\\"nullable\\":true,\\"metadata\\":{}}]}","partitionColumns":["p"],'
                '"configuration":{"delta.enableDeletionVectors":"true"},"createdTime":1700000000000}}')
    add = ('{"add":{"path":"p=1/part-00000-a.snappy.parquet","partitionValues":{"p":"1","q":null},"size":500,'
           '"modificationTime":1700000000000,"dataChange":true,"stats":"{\\"numRecords\\":5,\\"tightBounds\\":false}",'
           '"tags":{"INSERTION_TIME":"1700000000000000"},"deletionVector":{"storageType":"u","pathOrInlineDv":"ab'
           + UUID_Z85 + '","offset":1,"sizeInBytes":36,"cardinality":2},"baseRowId":0,"defaultRowCommitVersion":1}}')
    remove = ('{"remove":{"path":"part-00001-b.snappy.parquet","deletionTimestamp":1700000000001,"dataChange":false,'
              '"extendedFileMetadata":true,"partitionValues":{},"size":503,"tags":{"compactedInto":"[\\"part-2.parquet\\"]",'
              '"compactionInfo":"[{\\"rowOffsetInTarget\\":0,\\"sourceNumPhysicalRecords\\":5}]"},'
              '"deletionVector":{"storageType":"i","pathOrInlineDv":"' + z85_encode(inline) +
              '","sizeInBytes":' + str(len(inline)) + ',"cardinality":3,"maxRowIndex":3}}}')
    txn = '{"txn":{"appId":"app-1","version":3,"lastUpdated":1700000000000}}'
    domain = '{"domainMetadata":{"domain":"delta.rowTracking","configuration":"{\\"rowIdHighWaterMark\\":9}","removed":false}}'
    cdc = '{"cdc":{"path":"_change_data/cdc-00000.parquet","partitionValues":{},"size":1200,"dataChange":false}}'
    unknown = '{"checkpointMetadata":{"version":10,"tags":{"a":"b"}}}'
    add_unknown = ('{"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true,'
                   '"clusteringProvider":"liquid","futureField":{"x":[1,2.5,null,true]},"n":-0,"s":"\\u00e9"}}')
    p_dv = ('{"remove":{"path":"b","dataChange":true,"deletionVector":{"storageType":"p",'
            '"pathOrInlineDv":"file:/tmp/dv%20x.bin","offset":9,"sizeInBytes":22,"cardinality":1}}}')
    commit = "\r\n".join([commit_info, add, remove, "", txn]) + "\n"
    # The input is also read as an add's statistics string.
    stats = ('{"numRecords":7,"minValues":{"a":1,"b":{"c":"x"},"id":-5},"maxValues":{"a":9,'
             '"b":{"c":"zz"},"id":5},"nullCount":{"a":0,"b":{"c":3},"id":0},"tightBounds":false}')
    stats_general = '{"numRecords":null,"minValues":{"a":1.5,"id":"q\\u00e9"},"nullCount":{"a":null},"x":[1]}'
    return [
        ("stats", stats), ("stats-general", stats_general),
        ("commit-info", commit_info), ("protocol", protocol), ("metadata", metadata), ("add-dv-u", add),
        ("remove-dv-i", remove), ("txn", txn), ("domain-metadata", domain), ("cdc", cdc),
        ("unknown-action", unknown), ("add-unknown-fields", add_unknown), ("remove-dv-p", p_dv),
        ("commit-crlf", commit),
    ]


def checker_cases_seeds():
    """Losers and winners that reach each reconcile case (checker_cases_fuzzer's input format)."""
    import json

    def dv(rows):
        raw = bitmap(rows)
        return {"storageType": "i", "pathOrInlineDv": z85_encode(raw), "sizeInBytes": len(raw), "cardinality": len(rows)}

    def add(path, rows, dv_rows=None, data_change=True, stats=None):
        a = {"path": path, "partitionValues": {}, "size": 1, "modificationTime": 1, "dataChange": data_change,
             "stats": stats or json.dumps({"numRecords": rows})}
        if dv_rows:
            a["deletionVector"] = dv(dv_rows)
        return {"add": a}

    def remove(path, dv_rows=None, data_change=True, tags=None):
        r = {"path": path, "dataChange": data_change}
        if dv_rows:
            r["deletionVector"] = dv(dv_rows)
        if tags:
            r["tags"] = tags
        return {"remove": r}

    def info(op):
        return {"commitInfo": {"operation": op, "isBlindAppend": False}}

    def tags(output, offset, physical):
        return {"compactedInto": json.dumps([output]),
                "compactionInfo": json.dumps([{"rowOffsetInTarget": offset, "sourceNumPhysicalRecords": physical}])}

    def seed(loser_predicates, read_files, loser_actions, *winners):
        txn = json.dumps({"readVersion": 0, "readPredicates": loser_predicates, "readFiles": read_files,
                          "actions": loser_actions})
        return "\n---\n".join([txn] + ["\n".join(json.dumps(a) for a in w) for w in winners])

    optimize = [info("OPTIMIZE"), remove("f1", [0], False, tags("c1", 0, 10)), remove("f2", None, False, tags("c1", 9, 10)),
                add("c1", 19, None, False)]
    dv_delete_f2 = [info("DELETE"), remove("f2"), add("f2", 10, [5])]
    return [
        ("case2-disjoint", seed(["id = 3"], ["f1"], [info("DELETE"), remove("f1"), add("f1", 10, [3])],
                                [info("DELETE"), remove("f1"), add("f1", 10, [7])])),
        ("case4a", seed([], ["f1", "f2"], optimize, dv_delete_f2)),
        ("case4b", seed(["id = 15"], ["f2"], dv_delete_f2, optimize)),
        ("case1-stats", seed(["id > 5"], ["f1"], [info("DELETE"), remove("f1")],
                             [info("WRITE"), add("w1", 3, stats=json.dumps(
                                 {"numRecords": 3, "minValues": {"id": 0}, "maxValues": {"id": 4}}))])),
        ("case3-relocation", seed(["id > 5"], ["f1"], [info("WRITE"), add("n", 1)],
                                  [info("OPTIMIZE"), remove("f1", None, False), add("c9", 4, None, False)])),
        ("two-winners", seed(["id = 3"], ["f1"], [info("DELETE"), remove("f1"), add("f1", 10, [3])],
                             [info("DELETE"), remove("f1"), add("f1", 10, [2])],
                             [info("DELETE"), remove("f1", [2]), add("f1", 10, [2, 4])])),
    ]


def history_seeds():
    """The case scenarios of tests/scenarios/cases, as they are (the target reads scenario text)."""
    cases = os.path.join(HERE, "..", "..", "tests", "scenarios", "cases")
    seeds = []
    for name in sorted(os.listdir(cases)):
        if name.endswith(".scenario"):
            with open(os.path.join(cases, name), "rb") as f:
                seeds.append((name[:-len(".scenario")].replace("_", "-"), f.read()))
    return seeds


def set_ops_seeds():
    """Programs for set_ops_fuzzer: 6-byte steps (op, slot, lo, hi), see the target's header."""
    def step(op, slot, lo, hi, bucket=0):
        # The byte names the operation (byte % 6) and the bucket (bits 4-5): the first byte with both.
        byte = next(b for b in range(256) if b % 6 == op and (b >> 4) & 3 == bucket)
        return bytes([byte, slot]) + struct.pack("<HH", lo, hi)

    def add(slot, lo, chunk=0, bucket=0):
        return step(0, slot, lo, chunk, bucket)

    def add_range(slot, lo, length, chunk=0, bucket=0):
        return step(1, slot, lo, ((length - 1) << 3) | chunk, bucket)

    def copy(slot, source):
        return step(2, slot, 0, source)

    def meet(slot, other):
        return step(3, slot, 0, other)

    def optimize(slot):
        return step(4, slot, 0, 0)

    sparse = b"".join(add(0, v) for v in (1, 5, 9, 300)) + b"".join(add(1, v) for v in (5, 7, 300)) + add(2, 5) + add(2, 300)
    dense = add_range(0, 0, 6000) + add_range(1, 3000, 6000) + copy(2, 0) + meet(2, 1)
    runs = add_range(0, 100, 200) + optimize(0) + add_range(1, 150, 100) + add(1, 900) + copy(2, 1) + optimize(2)
    near_limit = add_range(0, 0, 4000, chunk=1) + add_range(1, 3990, 200, chunk=1) + add(2, 3995, chunk=1)
    buckets = add(0, 7, bucket=1) + add(1, 7, bucket=2) + add(2, 7, bucket=1) + add(0, 7) + copy(1, 0)
    subset = add_range(0, 10, 50) + copy(1, 0) + step(5, 1, 20, 0) + step(5, 1, 30, 0) + copy(2, 1)
    return [("sparse", sparse), ("dense", dense), ("runs", runs), ("near-array-limit", near_limit),
            ("buckets", buckets), ("subset", subset)]


def parquet_seeds():
    """Small Parquet files written by pyarrow (from the project's .venv, scripts/install-python.sh):
    the columns parquet_rows_fuzzer asks for, of the types rlc reads, in one and in several row
    groups, plain and dictionary-encoded, with NULLs and a NULL parent struct. Skipped (with a
    note) when pyarrow is not importable."""
    try:
        import io
        import datetime
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        print("parquet seeds skipped: run with .venv/bin/python for pyarrow")
        return None
    def parquet(table, **kw):
        sink = io.BytesIO()
        pq.write_table(table, sink, **kw)
        return sink.getvalue()
    ids = pa.array([0, 1, None, 3], type=pa.int64())
    flat = pa.table({"id": ids, "value": pa.array(["a", None, "c", "d"]),
                     "day": pa.array([datetime.date(2024, 1, d) for d in (1, 2, 3, 4)]),
                     "ts": pa.array([datetime.datetime(2024, 1, 1, 0, 0, s) for s in range(4)],
                                    type=pa.timestamp("us"))})
    nested = pa.table({"id": ids, "a": pa.array([{"b": 1}, None, {"b": None}, {"b": 4}],
                                                 type=pa.struct([("b", pa.int32())]))})
    add = pa.struct([("path", pa.string()), ("partitionValues", pa.map_(pa.string(), pa.string())),
                     ("size", pa.int64()), ("modificationTime", pa.int64()),
                     ("dataChange", pa.bool_()), ("stats", pa.string())])
    protocol = pa.struct([("minReaderVersion", pa.int32()), ("minWriterVersion", pa.int32())])
    checkpoint = pa.table({
        "add": pa.array([None, {"path": "f1.parquet", "partitionValues": [("p", "a")], "size": 1,
                                "modificationTime": 1, "dataChange": False,
                                "stats": "{\"numRecords\":3}"}], type=add),
        "protocol": pa.array([{"minReaderVersion": 1, "minWriterVersion": 2}, None],
                             type=protocol)})
    return [("checkpoint", parquet(checkpoint, compression="NONE")),
            ("flat", parquet(flat, compression="NONE", use_dictionary=False)),
            ("flat-groups", parquet(flat, compression="NONE", row_group_size=1)),
            ("flat-dictionary", parquet(flat, compression="NONE", use_dictionary=True)),
            ("nested", parquet(nested, compression="NONE"))]


def main():
    seeds = parquet_seeds()
    if seeds is not None:
        write("parquet_rows", seeds)
    write("history", history_seeds())
    write("bitmap_decoder", bitmap_seeds())
    write("z85", z85_seeds())
    write("dv_file", dv_file_seeds())
    write("composition_tags", composition_seeds())
    write("commit_line", commit_seeds())
    write("checker_cases", checker_cases_seeds())
    write("set_ops", set_ops_seeds())
    print("uuid z85:", UUID_Z85)


if __name__ == "__main__":
    main()
