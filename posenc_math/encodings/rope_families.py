"""What each model family's transformers code reads from its ``config.json``.

A published ``config.json`` leaves out whatever its family's config class
supplies, and the families read the same keys differently: GPT-NeoX takes
its base from ``rotary_emb_base`` and its rotated fraction from
``rotary_pct``, Phi-3 moves a top-level ``original_max_position_embeddings``
(4096 when absent) into its LongRoPE parameters, Gemma 3 gives the sliding
layers ``rope_local_base_freq`` and the full layers ``rope_theta`` and the
scaling, Llama 4 turns RoPE off in every fourth layer.  Each :class:`Family`
here records one family's defaults and rules, as transformers 5.x
(``models/<family>/configuration_*.py`` and ``modeling_*.py``) implements
them; :func:`~posenc_math.rope_from_config` applies
them.  A ``model_type`` missing from :data:`FAMILIES` is read with the
generic rules of :data:`GENERIC`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .._validate import check_int

__all__ = ["FAMILIES", "GENERIC", "ConfigView", "Family", "family_of"]

#: Rope types whose original context transformers fills in from the config.
_NEEDS_ORIGINAL = ("llama3", "yarn", "longrope")


class ConfigView:
    """A text config dict with its family's class defaults behind it.

    ``view.get(key)`` is the config's value when the key is present (even
    ``None``), else the family's default, else ``default``.
    """

    def __init__(self, data: Mapping[str, Any], family: Family):
        self.data = data
        self.family = family

    def _names(self, key: str) -> list[str]:
        return [key, *(alias for alias, target in self.family.aliases.items() if target == key)]

    def has(self, key: str) -> bool:
        return any(name in self.data for name in self._names(key))

    def get(self, key: str, default: Any = None) -> Any:
        names = self._names(key)
        for name in names:
            if name in self.data:
                return self.data[name]
        for name in names:
            if name in self.family.defaults:
                return self.family.defaults[name]
        return default

    def value(self, key: str, default: Any = None) -> Any:
        """Like :meth:`get`, but an explicit ``None`` also takes the default."""
        found = self.get(key)
        return default if found is None else found

    def integer(self, key: str, minimum: int = 1) -> int:
        found = self.get(key)
        if found is None:
            raise ValueError(f"config key {key!r} is missing and family {self.family.name} has no default for it")
        return check_int(f"config[{key!r}]", found, minimum=minimum)


def _default_head_dim(view: ConfigView, layer: int, layer_type: str) -> int:
    """``head_dim`` if given (and not null), else ``hidden_size // num_attention_heads``."""
    head_dim = view.get("head_dim")
    if head_dim is not None:
        return check_int("config['head_dim']", head_dim, minimum=1)
    return view.integer("hidden_size") // view.integer("num_attention_heads")


def _all_full(view: ConfigView, n_layers: int) -> list[str]:
    return ["full_attention"] * n_layers


def _qwen2_layer_types(view: ConfigView, n_layers: int) -> list[str]:
    # sliding_window counts only with use_sliding_window; layers from
    # max_window_layers on slide (Qwen2Config.__post_init__).
    sliding = view.get("sliding_window") if view.get("use_sliding_window") else None
    first = view.get("max_window_layers")
    return [
        "sliding_attention" if sliding is not None and first is not None and i >= first else "full_attention"
        for i in range(n_layers)
    ]


def _pattern_layer_types(key: str, default: int) -> Callable[[ConfigView, int], list[str]]:
    def layer_types(view: ConfigView, n_layers: int) -> list[str]:
        pattern = check_int(f"config[{key!r}]", view.value(key, default), minimum=1)
        return ["sliding_attention" if (i + 1) % pattern else "full_attention" for i in range(n_layers)]

    return layer_types


def _every_layer_rope(view: ConfigView, layer: int, layer_type: str) -> str:
    return "rope"


def _theta_and_partial(view: ConfigView) -> tuple[Any, Any]:
    theta = view.get("rope_theta")
    return (view.family.default_theta if theta is None else theta), view.get(
        "partial_rotary_factor", view.family.partial_default
    )


def _standardize(
    view: ConfigView, parameters: dict, layer_types: list[str], theta: Any, partial: Any, notes: list[str]
) -> dict:
    """transformers' ``standardize_rope_params``: fill rope_type, rope_theta,
    partial_rotary_factor and the original context, flat or per layer type."""
    nested = [key for key in parameters if key in layer_types]
    if not nested:
        parameters.setdefault("rope_type", parameters.get("type", "default"))
        parameters.setdefault("rope_theta", theta)
        if partial is not None:
            parameters.setdefault("partial_rotary_factor", partial)
        if parameters["rope_type"] in _NEEDS_ORIGINAL:
            top = view.get("original_max_position_embeddings")
            inner = parameters.get("original_max_position_embeddings")
            if top is not None:
                # transformers gives a top-level original_max_position_embeddings
                # priority over the one in the rope parameters (for Phi-3).
                if inner is not None and inner != top:
                    notes.append(
                        f"original_max_position_embeddings {inner} in the rope parameters is replaced by the "
                        f"top-level value {top}, as transformers does"
                    )
                parameters["original_max_position_embeddings"] = top
            else:
                parameters.setdefault("original_max_position_embeddings", view.get("max_position_embeddings"))
        return parameters
    for key in nested:
        inner = parameters[key]
        if inner is None:
            continue
        if not isinstance(inner, dict):
            raise TypeError(f"config rope parameters for layer type {key!r} must be a dict or null, got {inner!r}")
        inner.setdefault("rope_type", inner.get("type", "default"))
        inner.setdefault("rope_theta", theta)
        if partial is not None:
            inner.setdefault("partial_rotary_factor", partial)
        if inner["rope_type"] in _NEEDS_ORIGINAL:
            inner.setdefault("original_max_position_embeddings", view.get("max_position_embeddings"))
        if inner["rope_type"] == "yarn" and inner.get("truncate") is False:
            # _compute_yarn_parameters reads config.rope_parameters.get("truncate"),
            # the outer dict, whose keys are layer types.
            inner.pop("truncate")
            notes.append(
                f"YaRN 'truncate': false under layer type {key!r} is ignored, as transformers 5.x reads "
                "'truncate' from the outer rope parameters (modeling_rope_utils._compute_yarn_parameters)"
            )
    return parameters


def _a_dict(name: str, value: Any) -> dict:
    if not isinstance(value, dict):
        raise TypeError(f"config[{name!r}] must be a dict or null, got {type(value).__name__} {value!r}")
    return value


def _given_parameters(view: ConfigView) -> dict:
    """``rope_scaling or rope_parameters or {}`` (a copy), as ``convert_rope_params_to_dict`` picks."""
    for name in ("rope_scaling", "rope_parameters"):
        if view.get(name) not in (None, False, 0, "", [], {}):
            _a_dict(name, view.get(name))
    given = view.get("rope_scaling") or view.get("rope_parameters") or {}
    return copy.deepcopy(_a_dict("rope_scaling", given))


def _generic_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    theta, partial = _theta_and_partial(view)
    return _standardize(view, _given_parameters(view), layer_types, theta, partial, notes)


def _gpt_neox_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    # GPTNeoXConfig.convert_rope_params_to_dict: rotary_emb_base and
    # rotary_pct (default 0.25); the generic top-level keys are not read.
    given = _given_parameters(view)
    if "rope_theta" not in given and view.has("rope_theta") and view.get("rope_theta") != view.get("rotary_emb_base"):
        notes.append(
            f"top-level rope_theta {view.get('rope_theta')!r} is ignored: transformers' GPT-NeoX reads "
            "rotary_emb_base (configuration_gpt_neox.py)"
        )
    if "partial_rotary_factor" not in given and view.has("partial_rotary_factor") and not view.has("rotary_pct"):
        notes.append(
            "top-level partial_rotary_factor is ignored: transformers' GPT-NeoX reads rotary_pct (default 0.25)"
        )
    given.setdefault("rope_theta", view.value("rotary_emb_base", view.family.default_theta))
    given.setdefault("partial_rotary_factor", view.value("rotary_pct", 0.25))
    return _standardize(view, given, layer_types, given["rope_theta"], None, notes)


def _phi3_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    # Phi3Config.convert_rope_params_to_dict; the legacy types "su" and
    # "yarn" are LongRoPE (short and long factors).
    given = _given_parameters(view)
    given.setdefault("rope_theta", view.value("rope_theta", view.family.default_theta))
    given.setdefault("partial_rotary_factor", view.value("partial_rotary_factor", 1.0))
    legacy = given.get("rope_type", given.get("type"))
    if legacy == "su" and given.get("original_max_position_embeddings") is None:
        given["original_max_position_embeddings"] = view.get("original_max_position_embeddings")
    parameters = _standardize(view, given, layer_types, given["rope_theta"], None, notes)
    if parameters.get("rope_type") in ("su", "yarn"):
        notes.append(f"Phi-3's legacy rope type {parameters['rope_type']!r} means 'longrope'")
        parameters["rope_type"] = "longrope"
        parameters.pop("type", None)
    elif parameters.get("type") in ("su", "yarn"):
        parameters.pop("type")
    return parameters


def _gemma3_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    # Gemma3TextConfig.convert_rope_params_to_dict: rope_scaling goes to the
    # full-attention layers only; rope_theta (default 1e6) to the full,
    # rope_local_base_freq (default 1e4) to the sliding layers.
    given = view.get("rope_parameters")
    parameters = (
        copy.deepcopy(_a_dict("rope_parameters", given))
        if given is not None
        else {"sliding_attention": {"rope_type": "default"}, "full_attention": {"rope_type": "default"}}
    )
    scaling = view.get("rope_scaling")
    for layer_type in ("full_attention", "sliding_attention"):
        if parameters.get(layer_type) is not None:
            _a_dict(f"rope_parameters']['{layer_type}", parameters[layer_type])
    if parameters.get("full_attention") is None:
        parameters["full_attention"] = {"rope_type": "default"}
    if scaling is not None:
        parameters["full_attention"].update(copy.deepcopy(_a_dict("rope_scaling", scaling)))
    parameters["full_attention"].setdefault("rope_theta", view.value("rope_theta", 1_000_000.0))
    if parameters.get("sliding_attention") is None:
        parameters["sliding_attention"] = {"rope_type": "default"}
    parameters["sliding_attention"].setdefault("rope_theta", view.value("rope_local_base_freq", 10_000.0))
    return _standardize(view, parameters, layer_types, None, view.get("partial_rotary_factor"), notes)


def _gemma4_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    # Gemma4TextConfig: no legacy keys; default per layer type.
    given = view.get("rope_parameters")
    if given is None:
        given = {
            "sliding_attention": {"rope_type": "default", "rope_theta": 10_000.0},
            "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1_000_000.0},
        }
    if view.get("rope_scaling") is not None:
        notes.append("rope_scaling is not read by Gemma 4 (only rope_parameters)")
    return _standardize(
        view, copy.deepcopy(_a_dict("rope_parameters", given)), layer_types, view.get("rope_theta"), None, notes
    )


def _gpt_oss_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    if view.get("rope_scaling") or view.get("rope_parameters"):
        return _generic_parameters(view, layer_types, notes)
    default = {
        "rope_type": "yarn",
        "factor": 32.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "truncate": False,
        "original_max_position_embeddings": 4096,
    }
    theta, _ = _theta_and_partial(view)
    return _standardize(view, default, layer_types, theta, None, notes)


def _qwen_vl_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    # Qwen2VLTextConfig.convert_rope_params_to_dict: the type "mrope" is the
    # default rule with sections.
    parameters = _generic_parameters(view, layer_types, notes)
    if parameters.get("rope_type") == "mrope" or parameters.get("type") == "mrope":
        parameters["rope_type"] = "default"
        parameters.pop("type", None)
    return parameters


def _gptj_parameters(view: ConfigView, layer_types: list[str], notes: list[str]) -> dict:
    # GPTJRotaryEmbedding: base 10000, no scaling, whatever the config says.
    for key in ("rope_theta", "rope_scaling", "rope_parameters"):
        if view.get(key) not in (None, {}, 10000, 10000.0):
            notes.append(f"config key {key!r} is not read by transformers' GPT-J (base 10000, no scaling)")
    return {"rope_type": "default", "rope_theta": 10000.0}


def _deepseek_rotary(view: ConfigView, layer: int, layer_type: str) -> int:
    return view.integer("qk_rope_head_dim")


def _deepseek_qk_head(view: ConfigView, layer: int, layer_type: str) -> int:
    return view.integer("qk_nope_head_dim", minimum=0) + view.integer("qk_rope_head_dim")


def _deepseek_offset(view: ConfigView) -> int:
    return view.integer("qk_nope_head_dim", minimum=0)


def _deepseek_score_scale(view: ConfigView, parameters: dict) -> float:
    # yarn_apply_mscale: softmax scale times mscale(factor, mscale_all_dim) ** 2
    if parameters.get("rope_type", "default") == "default":
        return 1.0
    mscale_all_dim = parameters.get("mscale_all_dim") or 0
    factor = parameters.get("factor")
    if not mscale_all_dim or factor is None or factor <= 1:
        return 1.0
    mscale = 0.1 * mscale_all_dim * math.log(factor) + 1.0
    return mscale * mscale


def _no_score_scale(view: ConfigView, parameters: dict) -> float:
    return 1.0


def _gptj_head(view: ConfigView, layer: int, layer_type: str) -> int:
    return view.integer("n_embd") // view.integer("n_head")


def _gptj_rotary(view: ConfigView, layer: int, layer_type: str) -> int:
    rotary_dim = view.get("rotary_dim")
    if rotary_dim is None:
        return _gptj_head(view, layer, layer_type)
    return check_int("config['rotary_dim']", rotary_dim, minimum=2)


def _cohere2_head(view: ConfigView, layer: int, layer_type: str) -> int:
    return view.integer("hidden_size") // view.integer("num_attention_heads")


def _cohere2_kind(view: ConfigView, layer: int, layer_type: str) -> str:
    # Cohere2Attention turns only the sliding-window layers.
    return "rope" if layer_type == "sliding_attention" else "nope"


def _gemma4_head(view: ConfigView, layer: int, layer_type: str) -> int:
    overrides = view.get("per_layer_config")
    if isinstance(overrides, dict):
        own = overrides.get(str(layer), overrides.get(layer))
        if isinstance(own, dict) and own.get("head_dim") is not None:
            return check_int(f"config['per_layer_config'][{layer}]['head_dim']", own["head_dim"], minimum=1)
        return _default_head_dim(view, layer, layer_type)
    if layer_type == "full_attention":
        return check_int("config['global_head_dim']", view.value("global_head_dim", 512), minimum=1)
    return _default_head_dim(view, layer, layer_type)


def _gemma4_layer_types(view: ConfigView, n_layers: int) -> list[str]:
    return _pattern_layer_types("sliding_window_pattern", 6)(view, n_layers)


def _gemma4_fix_types(layer_types: list[str], notes: list[str]) -> list[str]:
    if layer_types and layer_types[-1] != "full_attention":
        notes.append("Gemma 4 forces the last layer to full_attention")
        layer_types = [*layer_types[:-1], "full_attention"]
    return layer_types


def _keep_types(layer_types: list[str], notes: list[str]) -> list[str]:
    return layer_types


def _llama4_rope_layers(view: ConfigView, n_layers: int) -> list[int]:
    given = view.get("no_rope_layers")
    if given:
        if not isinstance(given, list) or len(given) != n_layers:
            raise ValueError(
                f"config['no_rope_layers'] must be a list of {n_layers} entries (num_hidden_layers), "
                f"1 for a layer with RoPE and 0 for a NoPE layer; got {given!r}"
            )
        return [int(bool(flag)) for flag in given]
    interval = check_int("config['no_rope_layer_interval']", view.value("no_rope_layer_interval", 4), minimum=1)
    return [int((i + 1) % interval != 0) for i in range(n_layers)]


def _llama4_kind(view: ConfigView, layer: int, layer_type: str) -> str:
    # Llama4TextAttention: use_rope = config.no_rope_layers[layer_idx]; 1
    # means RoPE (the name says the opposite).
    n_layers = view.integer("num_hidden_layers")
    return "rope" if _llama4_rope_layers(view, n_layers)[layer] else "nope"


def _llama4_layer_types(view: ConfigView, n_layers: int) -> list[str]:
    chunked = view.get("attention_chunk_size") is not None
    return [
        "chunked_attention" if rope and chunked else "full_attention" for rope in _llama4_rope_layers(view, n_layers)
    ]


def _gpt_oss_layer_types(view: ConfigView, n_layers: int) -> list[str]:
    return ["sliding_attention" if (i + 1) % 2 else "full_attention" for i in range(n_layers)]


def _same_head(view: ConfigView, layer: int, layer_type: str) -> int:
    return -1  # the q/k head is the rotary head


def _no_offset(view: ConfigView) -> int:
    return 0


@dataclass(frozen=True)
class Family:
    """One family's defaults and reading rules (transformers 5.x).

    Parameters
    ----------
    name : str
        The family, as people name it ("Llama", "Gemma 3", ...).
    model_types : tuple of str
        The ``model_type`` values of its configs (text and multimodal).
    layout : str
        ``"half"`` or ``"interleaved"``: how its attention pairs the rotated features.
    default_theta : float
        ``rope_theta`` when the config gives none.
    defaults
        A read-only mapping: the config class's defaults for the keys read here.
    partial_default : float or None
        ``partial_rotary_factor`` when the config gives none (Phi-2 and GLM
        0.5); None: rotate the whole head.
    default_rule_partial : bool
        Whether the family's own ``default`` rule honours
        ``partial_rotary_factor`` (Llama's ignores it; the rules of
        ``ROPE_INIT_FUNCTIONS`` always honour it).
    mrope : str or None
        Multimodal RoPE, ``"chunked"`` or ``"interleaved"``: consecutive sections (Qwen2-VL) or pairs dealt in
        turn (Qwen3-VL).
    mrope_section : tuple or None
        The sections when the config gives none.
    longrope_mscale : bool
        LongRoPE's attention factor is the config's ``short_mscale`` or
        ``long_mscale`` (Phi-3.5-MoE), and transformers keeps the short
        factors at every length.
    """

    name: str
    model_types: tuple[str, ...]
    layout: str = "half"
    default_theta: float = 10000.0
    defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    partial_default: float | None = None
    default_rule_partial: bool = False
    mrope: str | None = None
    mrope_section: tuple[int, int, int] | None = None
    aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    rotary_head: Callable[[ConfigView, int, str], int] = _default_head_dim
    qk_head: Callable[[ConfigView, int, str], int] = _same_head
    rotary_offset: Callable[[ConfigView], int] = _no_offset
    layer_types: Callable[[ConfigView, int], list[str]] = _all_full
    fix_layer_types: Callable[[list[str], list[str]], list[str]] = _keep_types
    parameters: Callable[[ConfigView, list[str], list[str]], dict] = _generic_parameters
    kind: Callable[[ConfigView, int, str], str] = _every_layer_rope
    score_scale: Callable[[ConfigView, dict], float] = _no_score_scale
    temperature_tuning: bool = False
    longrope_mscale: bool = False


def _defaults(**values: Any) -> Mapping[str, Any]:
    return MappingProxyType(values)


_LLAMA_LIKE = {"hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32}

#: The families read here, by ``model_type``.
FAMILIES: dict[str, Family] = {}


def _register(family: Family) -> None:
    for model_type in family.model_types:
        FAMILIES[model_type] = family


for _family in (
    Family("Llama", ("llama",), defaults=_defaults(**_LLAMA_LIKE, max_position_embeddings=2048)),
    Family("Mistral", ("mistral",), defaults=_defaults(**_LLAMA_LIKE, max_position_embeddings=131072, head_dim=None)),
    Family(
        "Qwen2",
        ("qwen2",),
        defaults=_defaults(
            **_LLAMA_LIKE,
            max_position_embeddings=32768,
            sliding_window=4096,
            max_window_layers=28,
            use_sliding_window=False,
        ),
        layer_types=_qwen2_layer_types,
    ),
    Family(
        "DeepSeek-V3",
        ("deepseek_v3",),
        layout="interleaved",
        defaults=_defaults(
            hidden_size=7168,
            num_attention_heads=128,
            num_hidden_layers=61,
            max_position_embeddings=4096,
            qk_rope_head_dim=64,
            qk_nope_head_dim=128,
            rope_interleave=True,
        ),
        rotary_head=_deepseek_rotary,
        qk_head=_deepseek_qk_head,
        rotary_offset=_deepseek_offset,
        score_scale=_deepseek_score_scale,
    ),
    Family(
        "DeepSeek-V2",
        ("deepseek_v2",),
        layout="interleaved",
        defaults=_defaults(
            **_LLAMA_LIKE, max_position_embeddings=2048, qk_rope_head_dim=64, qk_nope_head_dim=128, head_dim=None
        ),
        rotary_head=_deepseek_rotary,
        qk_head=_deepseek_qk_head,
        rotary_offset=_deepseek_offset,
        score_scale=_deepseek_score_scale,
    ),
    Family(
        "gpt-oss",
        ("gpt_oss",),
        default_theta=150000.0,
        defaults=_defaults(
            hidden_size=2880, num_attention_heads=64, num_hidden_layers=36, max_position_embeddings=131072, head_dim=64
        ),
        layer_types=_gpt_oss_layer_types,
        parameters=_gpt_oss_parameters,
    ),
    Family(
        "Phi-3",
        ("phi3",),
        defaults=_defaults(
            hidden_size=3072,
            num_attention_heads=32,
            num_hidden_layers=32,
            max_position_embeddings=4096,
            original_max_position_embeddings=4096,
        ),
        default_rule_partial=True,
        parameters=_phi3_parameters,
    ),
    Family(
        "Phi-3.5-MoE",
        ("phimoe",),
        default_theta=1_000_000.0,
        defaults=_defaults(
            hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=131072
        ),
        longrope_mscale=True,
    ),
    Family(
        "Phi (Phi-1, Phi-2)",
        ("phi",),
        defaults=_defaults(
            hidden_size=2048, num_attention_heads=32, num_hidden_layers=24, max_position_embeddings=2048
        ),
        partial_default=0.5,
        default_rule_partial=True,
    ),
    Family(
        "GPT-NeoX (Pythia)",
        ("gpt_neox",),
        defaults=_defaults(
            hidden_size=6144, num_attention_heads=64, num_hidden_layers=44, max_position_embeddings=2048
        ),
        default_rule_partial=True,
        parameters=_gpt_neox_parameters,
    ),
    Family(
        "Gemma 3",
        ("gemma3_text", "gemma3"),
        default_theta=1_000_000.0,
        defaults=_defaults(
            hidden_size=2304, num_attention_heads=8, num_hidden_layers=26, max_position_embeddings=131072, head_dim=256
        ),
        layer_types=_pattern_layer_types("sliding_window_pattern", 6),
        parameters=_gemma3_parameters,
    ),
    Family(
        "Gemma 4",
        ("gemma4_text", "gemma4"),
        defaults=_defaults(
            hidden_size=2304, num_attention_heads=8, num_hidden_layers=30, max_position_embeddings=131072, head_dim=256
        ),
        rotary_head=_gemma4_head,
        layer_types=_gemma4_layer_types,
        fix_layer_types=_gemma4_fix_types,
        parameters=_gemma4_parameters,
    ),
    Family(
        "Llama 4",
        ("llama4_text", "llama4"),
        layout="interleaved",
        default_theta=500000.0,
        defaults=_defaults(
            hidden_size=5120,
            num_attention_heads=40,
            num_hidden_layers=48,
            max_position_embeddings=131072,
            head_dim=128,
            no_rope_layer_interval=4,
            attention_chunk_size=8192,
            attn_temperature_tuning=True,
            floor_scale=8192,
            attn_scale=0.1,
        ),
        layer_types=_llama4_layer_types,
        kind=_llama4_kind,
        temperature_tuning=True,
    ),
    Family(
        "Qwen2-VL",
        ("qwen2_vl_text", "qwen2_vl"),
        default_theta=1_000_000.0,
        defaults=_defaults(
            hidden_size=8192,
            num_attention_heads=64,
            num_hidden_layers=80,
            max_position_embeddings=32768,
            sliding_window=4096,
            max_window_layers=80,
            use_sliding_window=False,
        ),
        mrope="chunked",
        mrope_section=(16, 24, 24),
        layer_types=_qwen2_layer_types,
        parameters=_qwen_vl_parameters,
    ),
    Family(
        "Qwen2.5-VL",
        ("qwen2_5_vl_text", "qwen2_5_vl"),
        default_theta=1_000_000.0,
        defaults=_defaults(
            hidden_size=8192,
            num_attention_heads=64,
            num_hidden_layers=80,
            max_position_embeddings=32768,
            sliding_window=4096,
            max_window_layers=80,
            use_sliding_window=False,
        ),
        mrope="chunked",
        mrope_section=(16, 24, 24),
        layer_types=_qwen2_layer_types,
        parameters=_qwen_vl_parameters,
    ),
    Family(
        "Qwen3-VL",
        ("qwen3_vl_text", "qwen3_vl"),
        default_theta=500000.0,
        defaults=_defaults(
            hidden_size=4096, num_attention_heads=32, num_hidden_layers=32, max_position_embeddings=128000, head_dim=128
        ),
        mrope="interleaved",
        mrope_section=(24, 20, 20),
        parameters=_qwen_vl_parameters,
    ),
    Family(
        "Qwen3-VL-MoE",
        ("qwen3_vl_moe_text", "qwen3_vl_moe"),
        default_theta=500000.0,
        defaults=_defaults(
            hidden_size=2048,
            num_attention_heads=16,
            num_hidden_layers=24,
            max_position_embeddings=128000,
            head_dim=None,
        ),
        mrope="interleaved",
        mrope_section=(24, 20, 20),
        parameters=_qwen_vl_parameters,
    ),
    Family(
        "GPT-J",
        ("gptj",),
        layout="interleaved",
        defaults=_defaults(n_embd=4096, n_head=16, n_layer=28, n_positions=2048, rotary_dim=64),
        aliases=_defaults(
            n_positions="max_position_embeddings",
            n_embd="hidden_size",
            n_head="num_attention_heads",
            n_layer="num_hidden_layers",
        ),
        rotary_head=_gptj_rotary,
        qk_head=_gptj_head,
        parameters=_gptj_parameters,
    ),
    Family(
        "Cohere (Command R)",
        ("cohere",),
        layout="interleaved",
        default_theta=500000.0,
        defaults=_defaults(
            hidden_size=8192, num_attention_heads=64, num_hidden_layers=40, max_position_embeddings=8192
        ),
    ),
    Family(
        "Cohere 2 (Command R7B)",
        ("cohere2",),
        layout="interleaved",
        defaults=_defaults(
            hidden_size=8192, num_attention_heads=64, num_hidden_layers=40, max_position_embeddings=8192
        ),
        rotary_head=_cohere2_head,
        layer_types=_pattern_layer_types("sliding_window_pattern", 4),
        kind=_cohere2_kind,
    ),
    Family(
        "GLM",
        ("glm", "glm4"),
        layout="interleaved",
        defaults=_defaults(
            hidden_size=4096, num_attention_heads=32, num_hidden_layers=40, max_position_embeddings=131072, head_dim=128
        ),
        partial_default=0.5,
        default_rule_partial=True,
    ),
    Family(
        "GLM-4.5 (GLM-4 MoE)",
        ("glm4_moe",),
        defaults=_defaults(
            hidden_size=4096, num_attention_heads=96, num_hidden_layers=46, max_position_embeddings=131072
        ),
        partial_default=0.5,
        default_rule_partial=True,
    ),
):
    _register(_family)

#: The rules for a ``model_type`` not in :data:`FAMILIES`: Llama's keys and
#: half layout, ``partial_rotary_factor`` honoured when given.
GENERIC = Family("generic (Llama-like)", (), default_rule_partial=True)


def family_of(model_type: object) -> Family:
    """The :class:`Family` of a ``model_type`` (:data:`GENERIC` when unknown).

    Examples
    --------
    >>> family_of("gemma3_text").name, family_of("gptj").layout
    ('Gemma 3', 'interleaved')
    >>> family_of("my_new_model").name
    'generic (Llama-like)'
    """
    if isinstance(model_type, str) and model_type in FAMILIES:
        return FAMILIES[model_type]
    return GENERIC
