"""Self-checks of tests/wasm/run_mpy.mjs, the WebAssembly MicroPython runner."""

import json

import mpy


def run(tmp_path, code, **kwargs):
    entry = tmp_path / "entry.py"
    entry.write_text(code)
    return mpy.run_micropython(entry, **kwargs)


def test_runs_micropython(tmp_path):
    r = run(tmp_path, "import sys\nprint(sys.implementation.name)\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "micropython\n"


def test_exception_exits_nonzero_with_traceback(tmp_path):
    code = "print('before')\ndef f():\n    raise ValueError('boom-4711')\nf()\nprint('after')\n"
    r = run(tmp_path, code)
    assert r.returncode == 1
    assert r.stdout == "before\n"
    assert "Traceback (most recent call last)" in r.stderr
    assert r.stderr.rstrip().endswith("ValueError: boom-4711")


def test_argv_arrives(tmp_path):
    args = ["plain", "with space", 'quote" and \\ backslash', "line\nbreak", "", "é ☃"]
    r = run(tmp_path, "import json\nprint(json.dumps(ARGV))\n", args=args)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == args


def test_argv_empty_by_default(tmp_path):
    r = run(tmp_path, "print(ARGV)\n")
    assert (r.returncode, r.stdout) == (0, "[]\n"), r.stderr


def test_stdin_and_exact_output(tmp_path):
    code = "import sys\nprint(len(STDIN))\nprint('err', file=sys.stderr)\nprint(STDIN, end='')\n"
    text = "line 1\nline 2 é\nno newline at the end"
    r = run(tmp_path, code, stdin=text)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "%d\n%s" % (len(text), text)  # last line without "\n" comes out too
    assert r.stderr == "err\n"


def test_sys_exit_status(tmp_path):
    assert run(tmp_path, "import sys\nsys.exit(3)\n").returncode == 3
    assert run(tmp_path, "import sys\nsys.exit()\n").returncode == 0


def test_mount(tmp_path):
    pkg = tmp_path / "tree" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("VALUE = 42\n")
    (tmp_path / "tree" / "data.txt").write_text("hello")
    code = "import pkg\nprint(pkg.VALUE, open('/lib/data.txt').read())\n"
    r = run(tmp_path, code, mounts=[(tmp_path / "tree", "/lib")])
    assert (r.returncode, r.stdout) == (0, "42 hello\n"), r.stderr
