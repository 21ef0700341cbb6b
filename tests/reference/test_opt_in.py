"""The gate of the reference suite, and the torch build it runs on."""


def test_reference_suite_runs_on_the_cpu_build_of_torch(torch, transformers):
    # The `reference` extra pins torch==2.13.0+cpu: a CUDA build here would
    # mean a plain "torch" requirement slipped in somewhere.
    assert torch.__version__.startswith("2.13.0")
    assert torch.version.cuda is None
    assert int(transformers.__version__.split(".")[0]) >= 5
