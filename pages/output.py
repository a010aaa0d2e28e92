"""Output: the compacted messages, the full response, downloads, the setting as a file with the
code that uses it in an agent, and code that sends the request to the service."""

from explorer.output import widgets as output
from explorer.session import state
from explorer.session.cache import Compaction
from explorer.widgets import common, page
from explorer.widgets import setting as setting_widgets


def draw(compaction: Compaction) -> None:
    request, response = compaction.request, compaction.response
    conv = state.conversation()
    common.pairing_warning(compaction.result)
    output.messages(compaction)
    output.downloads(conv, request, response)
    output.provider_exports(conv, request, response)
    setting = setting_widgets.sidebar_setting()
    if setting is not None:
        output.agent_setting(setting)
    output.service_request(conv, request, setting)
    output.full_response(response)


page.run("Output", draw)
