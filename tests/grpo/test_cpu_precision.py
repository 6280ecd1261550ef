"""bf16 autocast on the CPU only where the CPU multiplies bf16 natively."""

from __future__ import annotations

from pathlib import Path

import pytest

from kopa_grpo import train
from kopa_grpo.config import load_settings

INTEL_BF16 = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512bw avx512_bf16 avx512_vnni\n"
INTEL_AMX = "flags\t\t: fpu avx2 avx512f amx_tile amx_bf16 amx_int8\n"
AMD_AVX2 = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma bmi2\nprocessor\t: 1\nflags\t\t: fpu sse2 avx avx2 fma bmi2\n"


def test_native_bf16_flags_are_recognised() -> None:
    assert train.cpu_has_native_bf16(INTEL_BF16)
    assert train.cpu_has_native_bf16(INTEL_AMX)


def test_a_cpu_without_bf16_trains_in_float32() -> None:
    assert not train.cpu_has_native_bf16(AMD_AVX2)
    # a flag that merely contains the text does not count
    assert not train.cpu_has_native_bf16("flags\t\t: avx512f avx512_bf16x\n")


@pytest.mark.parametrize(("cpuinfo", "bf16"), [(INTEL_BF16, True), (AMD_AVX2, False)])
def test_trainer_args_follow_the_cpu(
    cpuinfo: str, bf16: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(train, "cpu_has_native_bf16", lambda: train._lists_native_bf16(cpuinfo))
    settings = load_settings("sft-cpu")
    assert settings.cpu_bf16
    args = train._trainer_args(settings, tmp_path)
    assert args["use_cpu"] is True and args["bf16"] is bf16
