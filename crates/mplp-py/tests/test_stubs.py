"""The .pyi stubs describe the extension module: same names, same parameters, docstrings."""

import ast
import inspect
from pathlib import Path

import mplp_rs
from mplp_rs import _native

STUB = Path(mplp_rs.__file__).with_name("_native.pyi")
PACKAGE = Path(mplp_rs.__file__).parent


def stub_tree():
    tree = ast.parse(STUB.read_text())
    top = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            top[node.target.id] = node
    return top


def params(fn_node):
    args = fn_node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    return [n for n in names if n not in ("self", "cls")]


def runtime_params(obj):
    return [p for p in inspect.signature(obj).parameters if p != "self"]


def public(names):
    return sorted(n for n in names if not n.startswith("_") or n == "__version__")


def test_every_runtime_name_is_stubbed_and_exported():
    top = stub_tree()
    for name in public(dir(_native)):
        assert name in top, f"{name} is missing from {STUB.name}"
        assert name in mplp_rs.__all__, f"{name} is not re-exported by mplp_rs"
    for name, node in top.items():
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not name.startswith("_"):
            assert hasattr(_native, name), f"the stub declares {name}, the module has none"


def test_function_and_method_parameters_match():
    top = stub_tree()
    for name, node in top.items():
        if name.startswith("_"):
            continue  # typing helpers of the stub (a TypedDict), not in the module
        if isinstance(node, ast.FunctionDef):
            assert params(node) == runtime_params(getattr(_native, name)), name
            assert getattr(_native, name).__doc__, f"{name} has no docstring"
        elif isinstance(node, ast.ClassDef):
            cls = getattr(_native, name)
            assert cls.__doc__, f"{name} has no docstring"
            for item in node.body:
                if not isinstance(item, ast.FunctionDef):
                    continue
                attr = getattr(cls, item.name)
                if isinstance(attr, property) or type(attr).__name__ == "getset_descriptor":
                    continue
                if item.name in ("__init__", "__new__"):
                    assert params(item) == runtime_params(cls), name
                elif not item.name.startswith("__"):
                    assert params(item) == runtime_params(attr), f"{name}.{item.name}"
                    assert attr.__doc__, f"{name}.{item.name} has no docstring"
            inherited = set(dir(ValueError)) if issubclass(cls, BaseException) else set()
            methods = {n for n in dir(cls) if not n.startswith("_") and n not in inherited}
            methods -= {"violations"}  # an instance attribute of the exceptions
            stubbed = {i.name for i in node.body if isinstance(i, ast.FunctionDef)}
            # Class attributes (`KIND`) are stubbed as annotations.
            stubbed |= {
                i.target.id
                for i in node.body
                if isinstance(i, ast.AnnAssign) and isinstance(i.target, ast.Name)
            }
            assert methods <= stubbed, f"{name}: not stubbed: {methods - stubbed}"


def test_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").exists()


def literal_values(alias):
    """The strings of `ALIAS = Literal[...]` (or `Optional[Literal[...]]`) in the stub."""
    tree = ast.parse(STUB.read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == alias:
            return [c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
    raise AssertionError(f"{alias} is not in the stub")


def test_the_stubs_literals_are_the_kind_table_and_the_profiles():
    table = mplp_rs.kind_table()
    assert literal_values("_Kind") == mplp_rs.kinds()
    logs = [k["name"] for k in table if k["shape"] == "log"]
    short = [n.removesuffix("-log") for n in logs]
    assert sorted(literal_values("_LogKind")) == sorted(["auto"] + logs + short)
    assert literal_values("_Profile") == mplp_rs.PROFILES
