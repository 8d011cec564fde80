from typing import Any
import pytest
from test_scorepad_browser import DESKTOP, PAD, PHONE, Opener, Pad, deal, pad_page, url, warm_pad

__all__ = ["pad_page", "warm_pad"]


@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_shots(pad_page: Opener, real_site: Any, lang: str, size: str) -> None:
    opts = PHONE if size == "phone" else DESKTOP
    page = pad_page({**opts, "device_scale_factor": 1})
    page.goto(url(real_site, lang))
    pad = Pad(page, lang, size == "phone")
    page.locator(f"{PAD} #dhp-profile-dashain").check()
    pad.names = pad.names
    pad.set_up()
    for n, (caller, hands) in enumerate([(1, [7, 4, 4]), (0, [3, 9, 12])], start=1):
        pad.type_deal(caller, hands)
        pad.settle(n)
    page.locator(f"{PAD} [data-hand='0']").click()
    page.screenshot(path=f"/tmp/pad-shot-{lang}-{size}-typing.png")
    page.locator(f"{PAD} [data-pad-fix]").click()
    page.locator("#dhp-fix-dealer").scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/pad-shot-{lang}-{size}-fix.png")
    page.locator(f"{PAD} [data-pad-fix-box] [data-pad-fix-cancel]").click()
    page.locator(f"{PAD} [data-pad-end]").click()
    page.wait_for_selector(f"{PAD} .dhp-pays")
    page.locator(f"{PAD} .dhp-pays").scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/pad-shot-{lang}-{size}-end.png", full_page=False)
