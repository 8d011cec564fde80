"""The table's settings: the rules and the bots (a form made from the engine's option specs), and the display preferences kept in the browser."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..core.i18n import N_, Translator, digits, number, translator
from ..core.profiles import PROFILE_KEYS, OptionSpec, find_profile
from .markup import esc
from .model import TableModel

LEVELS: Final[Mapping[str, str]] = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard"), "expert": N_("Expert")}
SETTINGS: Final = N_("Table settings")
RULES: Final = N_("Rules")
BOTS: Final = N_("Bots")
START_NEW: Final = N_("Start a new match")
# TRANSLATORS: closes the table settings (what was chosen for the display is kept at once).
DONE: Final = N_("Done")
DISPLAY: Final = N_("Display")
SPEED: Final = N_("Speed of the bots' moves")
SPEEDS: Final[Mapping[str, str]] = {
    "slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast"), "instant": N_("All at once"),
}
FOUR_COLOURS: Final = N_("Four-colour suits (diamonds blue, clubs green)")
SOUND: Final = N_("A sound when it is your turn and when a call is caught")
VIBRATE: Final = N_("A vibration when it is your turn and when a call is caught")


def render_settings(model: TableModel) -> str:
    """The settings form, made from the engine's option specs; inert until the engine runs."""
    t = translator(model.lang)
    tid = model.table_id
    profile = model.profile
    fields = []
    options = "".join(
        f'<option value="{esc(k)}"{" selected" if k == profile.key else ""}>{esc(t(find_profile(k).name))}</option>'
        for k in PROFILE_KEYS
    )
    fields.append(_field(f"{tid}-set-profile", t(RULES),
                         f'<select id="{esc(tid)}-set-profile" name="profile" data-dht-profile>{options}</select>'))
    for spec in profile.option_specs:
        fid = f"{tid}-set-{spec.key}"
        fields.append(_field(fid, t(spec.label), _control(fid, spec, profile.option(spec.key), t)))
    levels = "".join(
        f'<option value="{k}"{" selected" if k == model.difficulty else ""}>{esc(t(v))}</option>'
        for k, v in LEVELS.items()
    )
    fields.append(_field(f"{tid}-set-difficulty", t(BOTS),
                         f'<select id="{esc(tid)}-set-difficulty" name="difficulty">{levels}</select>'))
    disabled = "" if model.live else " disabled"
    return (f'<form class="dht-settings__form" data-dht-settings novalidate>'
            f'<fieldset class="dht-settings__fields"{disabled}><legend class="dh-visually-hidden">{esc(t(SETTINGS))}</legend>'
            f'{"".join(fields)}'
            f'<p class="dht-settings__submit"><button type="submit" id="{esc(tid)}-set-submit" '
            f'class="dht-btn dht-btn--primary">{esc(t(START_NEW))}</button></p>'
            f"</fieldset></form>")


def _field(fid: str, label: str, control: str) -> str:
    return f'<div class="dht-field"><label for="{esc(fid)}">{esc(label)}</label>{control}</div>'


def _control(fid: str, spec: OptionSpec, value: object, t: Translator) -> str:
    name = f"opt:{spec.key}"
    current = spec.text(value)  # type: ignore[arg-type]
    # Free-form numbers are text fields in the page's digits and decimal separator (the engine
    # reads ०-९ as well as 0-9, and 0,05 as well as 0.05 where the comma is the separator).
    if spec.kind == "money":
        return (f'<input id="{esc(fid)}" name="{esc(name)}" type="text" inputmode="decimal" '
                f'value="{esc(number(current, t.lang))}" autocomplete="off" size="6">')
    choices: list[str]
    if spec.kind == "bool":
        choices = ["on", "off"]
    elif spec.kind == "choice":
        choices = list(spec.choices)
    elif spec.high - spec.low <= 60:
        choices = [str(n) for n in range(spec.low, spec.high + 1)]
        if spec.kind == "int-or-none":
            choices = ["none"] + choices
    else:
        return (f'<input id="{esc(fid)}" name="{esc(name)}" type="text" inputmode="numeric" '
                f'value="{esc(digits(current, t.lang))}" autocomplete="off" size="6">')

    def shown(choice: str) -> str:
        v: object = choice
        if spec.kind == "bool":
            v = choice == "on"
        elif choice == "none":
            v = None
        return digits(spec.value_words(v, t), t.lang)

    opts = "".join(
        f'<option value="{esc(c)}"{" selected" if c == current else ""}>{esc(shown(c))}</option>' for c in choices
    )
    return f'<select id="{esc(fid)}" name="{esc(name)}">{opts}</select>'


def render_prefs(model: TableModel) -> str:
    """How the table looks and plays back, kept in the browser (no engine needed): the bots' pace,
    four-colour suits, and a sound or a vibration for the reader's turn and a caught call (off until chosen)."""
    t = translator(model.lang)
    tid = model.table_id
    speeds = "".join(
        f'<option value="{k}"{" selected" if k == "normal" else ""}>{esc(t(v))}</option>' for k, v in SPEEDS.items()
    )
    return (f'<fieldset class="dht-prefs"><legend>{esc(t(DISPLAY))}</legend>'
            f'<div class="dht-field"><label for="{esc(tid)}-speed">{esc(t(SPEED))}</label>'
            f'<select id="{esc(tid)}-speed" data-dht-speed>{speeds}</select></div>'
            f'<div class="dht-field dht-field--check"><input type="checkbox" id="{esc(tid)}-4c" data-dht-4c>'
            f'<label for="{esc(tid)}-4c">{esc(t(FOUR_COLOURS))}</label></div>'
            f'<div class="dht-field dht-field--check"><input type="checkbox" id="{esc(tid)}-sound" data-dht-sound>'
            f'<label for="{esc(tid)}-sound">{esc(t(SOUND))}</label></div>'
            f'<div class="dht-field dht-field--check"><input type="checkbox" id="{esc(tid)}-vibrate" data-dht-vibrate>'
            f'<label for="{esc(tid)}-vibrate">{esc(t(VIBRATE))}</label></div>'
            f"</fieldset>")
