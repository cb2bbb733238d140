"""Typed settings of the parametric-memory pipeline: preparing, training and evaluating.

Each step reads one frozen dataclass; the CLI fills it from its options and writes it into the
files it produces, so a project or run directory says how it was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from umb._errors import ConfigError
from umb.families import FAMILIES

Chunking = Literal["sliding_window", "turn_overlap"]
LineStyle = Literal["session", "role"]
PtMode = Literal["windows", "facts", "both"]
HeaderStyle = Literal["natural", "structured"]
RecordStyle = Literal["alpaca", "text"]
QaSampling = Literal["all", "upweight"]
InstructionStyle = Literal["full", "compact"]
Method = Literal["full", "lora", "skip"]
Metric = Literal["loglik", "generation"]
Split = Literal["seen", "held_out", "control"]

SPLITS: tuple[Split, ...] = ("seen", "held_out", "control")
METRICS: tuple[Metric, ...] = ("loglik", "generation")

#: The original release's names of the splits, used in the retention CSVs.
SPLIT_TYPES: dict[str, str] = {
    "seen": "supervised_character",
    "held_out": "held_out_character",
    "control": "never_trained_character",
}


def _check_choice(name: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")


@dataclass(frozen=True)
class PrepareConfig:
    """How a benchmark becomes a stagewise training project.

    The defaults are the original release's settings, except ``control_ratio`` (the original had
    no never-trained characters), ``line_style`` (umb dialogues have dated sessions) and
    ``qa_sampling`` (each question once instead of up to 24 weighted copies).
    """

    stages: int = 10
    seed: int = 42
    """Shuffles dialogues into stages."""
    entity_split_seed: int = 31415
    """Stage ``s`` splits its characters with seed ``entity_split_seed + s``."""
    train_ratio: float = 0.8
    """Share of trained characters whose questions are trained on (the rest: held out)."""
    control_ratio: float = 0.1
    """Share of a stage's characters never trained on at all (neither dialogue nor questions)."""
    chunking: Chunking = "sliding_window"
    max_chunk_tokens: int = 4096
    overlap_tokens: int = 1024
    line_style: LineStyle = "session"
    """``session``: dated session headers and speaker names; ``role``: ``user: …`` lines."""
    pt_mode: PtMode = "windows"
    """``windows`` of dialogue, one record per stated ``facts``, or ``both``."""
    pt_header_style: HeaderStyle = "natural"
    pt_record_style: RecordStyle = "alpaca"
    qa_sampling: QaSampling = "all"
    qa_max_per_character: int = 24
    """With ``upweight``: each character's questions are cut or cycled to exactly this many."""
    instructions: InstructionStyle = "full"
    """``full``: the contextual evaluation's family instructions; ``compact``: field names only."""
    families: tuple[str, ...] = ()
    """Only questions of these families (empty: all)."""

    def __post_init__(self) -> None:
        if self.stages < 1:
            raise ConfigError("--stages must be at least 1")
        if not 0 < self.train_ratio <= 1:
            raise ConfigError("--train-ratio must be in (0, 1]")
        if not 0 <= self.control_ratio < 1:
            raise ConfigError("--control-ratio must be in [0, 1)")
        if self.max_chunk_tokens < 16 or not 0 <= self.overlap_tokens < self.max_chunk_tokens:
            raise ConfigError("need --max-chunk-tokens >= 16 and 0 <= --overlap-tokens < it")
        if self.qa_max_per_character < 1:
            raise ConfigError("--qa-max-per-character must be at least 1")
        _check_choice("chunking", self.chunking, ("sliding_window", "turn_overlap"))
        _check_choice("line style", self.line_style, ("session", "role"))
        _check_choice("pt mode", self.pt_mode, ("windows", "facts", "both"))
        _check_choice("pt header style", self.pt_header_style, ("natural", "structured"))
        _check_choice("pt record style", self.pt_record_style, ("alpaca", "text"))
        _check_choice("qa sampling", self.qa_sampling, ("all", "upweight"))
        _check_choice("instructions", self.instructions, ("full", "compact"))
        for family in self.families:
            _check_choice("family", family, FAMILIES)

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return {**asdict(self), "families": list(self.families)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PrepareConfig:
        """Rebuild from :meth:`to_dict` output (unknown keys are an error)."""
        return _from_dict(cls, {**d, "families": tuple(d.get("families", ()))})


@dataclass(frozen=True)
class TinyModelConfig:
    """The size of the from-scratch Llama of the no-download path."""

    vocab_size: int = 2048
    hidden_size: int = 128
    intermediate_size: int = 384
    layers: int = 2
    heads: int = 4
    max_positions: int = 1024

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return asdict(self)


@dataclass(frozen=True)
class TrainConfig:
    """Stagewise continual training: per stage, pre-training then QA fine-tuning."""

    model: str = "tiny"
    """``tiny`` (tokenizer and Llama built here) or ``hf/<path or hub id>``."""
    pt_method: Method = "full"
    sft_method: Method = "full"
    pt_epochs: float = 1.0
    sft_epochs: float = 3.0
    pt_lr: float = 1e-5
    sft_lr: float = 1e-4
    batch_size: int = 4
    grad_accum: int = 1
    max_length: int = 2048
    """Longer sequences are cut (pre-training from the end, QA prompts from the start)."""
    warmup_ratio: float = 0.03
    weight_decay: float = 0.0
    lora_rank: int = 64
    lora_alpha: int = 128
    lora_dropout: float = 0.05
    seed: int = 0
    device: str = ""
    """``cpu``, ``cuda``, ``cuda:1``…; empty picks cuda when there is one."""
    dtype: str = "auto"
    """``auto`` (bf16 on cuda, fp32 on cpu), ``float32``, ``bfloat16``, ``float16``."""
    gradient_checkpointing: bool = False
    threads: int = 0
    """CPU threads for torch (0: torch's default)."""
    allow_download: bool = False
    """Let ``hf/<id>`` fetch from the Hub; off, only local folders and the local cache load."""
    tiny: TinyModelConfig = TinyModelConfig()

    def __post_init__(self) -> None:
        if self.model != "tiny" and not self.model.startswith("hf/"):
            raise ConfigError(f"--model must be 'tiny' or 'hf/<path>'; got {self.model!r}")
        for name in ("pt_method", "sft_method"):
            _check_choice(name, getattr(self, name), ("full", "lora", "skip"))
        if self.threads < 0:
            raise ConfigError("--threads must be >= 0")
        if self.batch_size < 1 or self.grad_accum < 1 or self.max_length < 16:
            raise ConfigError("--batch-size and --grad-accum must be >= 1, --max-length >= 16")
        if self.pt_epochs < 0 or self.sft_epochs < 0:
            raise ConfigError("epochs must be >= 0")
        _check_choice("dtype", self.dtype, ("auto", "float32", "bfloat16", "float16"))

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TrainConfig:
        """Rebuild from :meth:`to_dict` output."""
        d = dict(d)
        tiny = TinyModelConfig(**d.pop("tiny", {}))
        return _from_dict(cls, {**d, "tiny": tiny})


@dataclass(frozen=True)
class EvalConfig:
    """Which checkpoints, splits and metrics ``umb parametric eval`` covers."""

    metrics: tuple[Metric, ...] = METRICS
    splits: tuple[Split, ...] = SPLITS
    batch_size: int = 8
    max_new_tokens: int = 512
    include_base: bool = True
    """Also score the untrained starting point (checkpoint 0) on every stage."""
    max_items: int = 0
    """Per (stage, split): score at most this many items (0 = all), a seeded sample."""
    seed: int = 0
    device: str = ""
    """Empty: the device the run was trained with."""

    def __post_init__(self) -> None:
        for m in self.metrics:
            _check_choice("metric", m, METRICS)
        for s in self.splits:
            _check_choice("split", s, SPLITS)
        if not self.metrics or not self.splits:
            raise ConfigError("need at least one metric and one split")
        if self.batch_size < 1 or self.max_new_tokens < 1 or self.max_items < 0:
            raise ConfigError("--batch-size, --max-new-tokens must be >= 1, --max-items >= 0")

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON-ready values."""
        return {**asdict(self), "metrics": list(self.metrics), "splits": list(self.splits)}


def _from_dict(cls: Any, d: dict[str, Any]) -> Any:
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(d) - names)
    if unknown:
        raise ConfigError(f"unknown {cls.__name__} keys: {', '.join(unknown)}")
    return cls(**d)
