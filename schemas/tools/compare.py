#!/usr/bin/env python3
"""Compare our schema rendering with the canonical MPLP v1.0.0 schemas.

Usage: python3 schemas/tools/compare.py OURS_DIR REFERENCE_DIR

Both trees are loaded, annotation-only keywords (title, description,
examples, $comment, x-mplp-meta) are removed recursively, and what is
left must be equal file by file. Only keyword positions are stripped:
a *property* called "title" or "description" (e.g. Plan.title, or the
Ref.description property) is data about the schema and is compared.
Values of const/enum/default are compared verbatim.

Exit status: 0 if no differences, 1 otherwise. Standard library only.
"""
import json
import sys
from pathlib import Path

FILES = [
    "mplp-plan.schema.json",
    "mplp-dialog.schema.json",
    "mplp-collab.schema.json",
    "common/metadata.schema.json",
    "common/identifiers.schema.json",
    "common/events.schema.json",
    "common/trace-base.schema.json",
    "common/common-types.schema.json",
    "events/mplp-map-event.schema.json",
    "events/mplp-sa-event.schema.json",
    "events/mplp-event-core.schema.json",
    "events/mplp-runtime-execution-event.schema.json",
    "events/mplp-graph-update-event.schema.json",
    "events/mplp-pipeline-stage-event.schema.json",
]

ANNOTATIONS = {"title", "description", "examples", "$comment", "x-mplp-meta"}
# Keywords whose value is a map from *names* to subschemas.
NAME_MAPS = {"properties", "patternProperties", "definitions", "$defs", "dependencies"}
# Keywords whose value is instance data, never a schema.
DATA = {"const", "enum", "default"}
DRAFT07 = "http://json-schema.org/draft-07/schema#"


def strip(node):
    """Return a copy of the schema `node` without annotation keywords."""
    if isinstance(node, list):
        return [strip(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ANNOTATIONS:
            continue
        if key in DATA:
            out[key] = value
        elif key in NAME_MAPS and isinstance(value, dict):
            out[key] = {name: strip(sub) for name, sub in value.items()}
        else:
            out[key] = strip(value)
    return out


def pointer(parts):
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts) if parts else "(root)"


def diff(ours, ref, path, out):
    if type(ours) is not type(ref) or (isinstance(ours, bool) != isinstance(ref, bool)):
        out.append(f"{pointer(path)}: ours {json.dumps(ours)} != reference {json.dumps(ref)}")
        return
    if isinstance(ours, dict):
        for key in ref:
            if key not in ours:
                out.append(f"{pointer(path + [key])}: missing in ours (reference {json.dumps(ref[key])[:120]})")
        for key in ours:
            if key not in ref:
                out.append(f"{pointer(path + [key])}: extra in ours ({json.dumps(ours[key])[:120]})")
        for key in ours:
            if key in ref:
                diff(ours[key], ref[key], path + [key], out)
    elif isinstance(ours, list):
        if len(ours) != len(ref):
            out.append(f"{pointer(path)}: list length {len(ours)} != reference {len(ref)}: "
                       f"ours {json.dumps(ours)[:200]} reference {json.dumps(ref)[:200]}")
            return
        for i, (a, b) in enumerate(zip(ours, ref)):
            diff(a, b, path + [i], out)
    elif ours != ref:
        out.append(f"{pointer(path)}: ours {json.dumps(ours)} != reference {json.dumps(ref)}")


def load(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    ours_dir, ref_dir = Path(argv[1]), Path(argv[2])
    problems = 0
    for rel in FILES:
        ours_path, ref_path = ours_dir / rel, ref_dir / rel
        if not ours_path.is_file():
            print(f"{rel}: missing in {ours_dir}")
            problems += 1
            continue
        if not ref_path.is_file():
            print(f"{rel}: missing in {ref_dir}")
            problems += 1
            continue
        ours, ref = load(ours_path), load(ref_path)
        found = []
        if ours.get("$schema") != DRAFT07:
            found.append(f"/$schema: expected {DRAFT07!r}, found {ours.get('$schema')!r}")
        diff(strip(ours), strip(ref), [], found)
        for line in found:
            print(f"{rel}: {line}")
        problems += len(found)
        if not found:
            print(f"{rel}: ok")
    if problems:
        print(f"{problems} difference(s)")
        return 1
    print(f"no differences in {len(FILES)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
