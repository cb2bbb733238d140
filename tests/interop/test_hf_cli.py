"""``umb export --format hf`` and ``umb import hf`` through the command line: bad input gives
one line and exit status 2, the exporter's own options apply to it only."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pyarrow", reason="the hub extra (pyarrow) is not installed")
pytest.importorskip("datasets", reason="the hub extra (datasets) is not installed")

from umb import ConfigError  # noqa: E402
from umb._cli.main import cli  # noqa: E402


def _umb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "umb", *args], capture_output=True, text=True, check=False
    )


def test_export_and_import_verbs(umb_bench: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    hf = tmp_path / "hf"
    res = runner.invoke(
        cli, ["export", str(umb_bench), "--format", "hf", "--out", str(hf), "--max-shard-mb", "1"]
    )
    assert res.exit_code == 0, res.output
    assert f"wrote {hf} (hf)" in res.output
    assert (hf / "README.md").is_file() and (hf / "croissant.json").is_file()
    res = runner.invoke(cli, ["export", str(umb_bench), "--format", "hf", "--out", str(hf)])
    assert isinstance(res.exception, ConfigError) and "pass --force" in str(res.exception)
    res = runner.invoke(cli, ["import", "hf", str(hf), "-o", str(tmp_path / "back")])
    assert res.exit_code == 0, res.output
    assert "imported 2 dialogues, 3 sessions, 7 turns, 5 questions" in res.output
    help_text = " ".join(runner.invoke(cli, ["export", "--help"]).output.split())
    assert "--max-shard-mb" in help_text and "(hf only; default: 500)" in help_text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "locomo", "--max-shard-mb", "5"], "--max-shard-mb does not apply to"),
        (["--format", "hf", "--max-shard-mb", "0"], "--max-shard-mb must be positive"),
    ],
)
def test_option_errors_are_one_line(
    umb_bench: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    res = _umb("export", str(umb_bench), "--out", str(tmp_path / "x"), *args)
    assert res.returncode == 2
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr


def test_a_broken_record_names_its_file_and_line(umb_bench: Path, tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    shutil.copytree(umb_bench, bench)
    lines = (bench / "dialogues.jsonl").read_text().splitlines()
    d = json.loads(lines[1])
    d["sessions"][0]["turns"][0]["text"] = 7
    lines[1] = json.dumps(d)
    (bench / "dialogues.jsonl").write_text("\n".join(lines) + "\n")
    res = _umb("export", str(bench), "--format", "hf", "--out", str(tmp_path / "hf"))
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip() == (
        f"umb: error: {bench / 'dialogues.jsonl'}:2: sessions[0].turns[0].text: "
        "expected a string, got int"
    )
    assert not (tmp_path / "hf").exists()  # nothing half-written is left


def test_import_refuses_a_folder_that_is_not_an_export(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    res = _umb("import", "hf", str(tmp_path / "plain"), "-o", str(tmp_path / "b"))
    assert res.returncode == 2
    assert "umb-manifest.json: missing file" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_changed_rows_import_with_a_new_manifest(umb_bench: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    from umb.bench._validate import validate
    from umb.interop.hf._export import export_hf
    from umb.interop.hf._import import import_hf

    hf = tmp_path / "hf"
    export_hf(umb_bench, hf)
    shard = next((hf / "data" / "questions").glob("*.parquet"))
    table = pq.read_table(shard)
    queries = table.column("query").to_pylist()
    queries[0] = queries[0] + " (edited)"
    table = table.set_column(table.schema.get_field_index("query"), "query", [queries])
    pq.write_table(table, shard)
    manifest = import_hf(hf, tmp_path / "back")
    assert manifest["import_warning_counts"] == {"file_differs_from_export": 1}
    assert manifest["import_warnings"][0]["where"] == "questions.jsonl"
    assert manifest["source"]["format"] == "hf"
    assert manifest["counts"]["questions"] == 5
    assert validate(tmp_path / "back") == []


def test_missing_extra_names_it(umb_bench: Path, tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['pyarrow'] = None; sys.argv = ['umb', 'export', "
        f"{str(umb_bench)!r}, '--format', 'hf', '--out', {str(tmp_path / 'hf')!r}]; "
        "from umb._cli.main import entry; entry()"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert res.returncode == 2
    assert "pip install 'unifiedmembench[hub]'" in res.stderr
    assert "Traceback" not in res.stderr


def test_public_verbs_take_the_exporters_options(umb_bench: Path, tmp_path: Path) -> None:
    import umb

    umb.export_benchmark(umb_bench, "hf", tmp_path / "hf", max_shard_mb=2, license="mit")
    assert "license: mit" in (tmp_path / "hf" / "README.md").read_text()
    back = umb.import_benchmark(tmp_path / "hf", "hf", tmp_path / "back")
    assert [q.id for q in back.questions] == [q.id for q in umb.load_benchmark(umb_bench).questions]
