// SPDX-License-Identifier: Apache-2.0
#include "core/sim/transcript_writer.h"

namespace drasim::sim {

namespace {

/// One event per line: line breaks inside a message are written as "\n".
void appendOneLine(std::string& out, const std::string& text)
{
    for (char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c != '\r')
            out += c;
    }
}

void appendWord(std::string& out, const char* key, const std::string& value)
{
    if (value.empty())
        return;
    out += ' ';
    out += key;
    out += '=';
    out += value;
}

std::string deviceList(const std::vector<HeldDevice>& devices)
{
    std::string out;
    for (const auto& d : devices) {
        if (!out.empty())
            out += ',';
        out += d.claim + ":" + d.driver + "/" + d.pool + "/" + d.device;
    }
    return out;
}

std::string joined(const std::vector<std::string>& words)
{
    std::string out;
    for (const auto& w : words) {
        if (!out.empty())
            out += ',';
        out += w;
    }
    return out;
}

} // namespace

void TranscriptWriter::onPodEvent(const PodEvent& e)
{
    m_text += formatDuration(e.time);
    m_text += ' ';
    m_text += podEventTypeName(e.type);
    m_text += ' ';
    m_text += e.pod;
    if (e.type == PodEventType::Created) {
        appendWord(m_text, "job", e.job);
        appendWord(m_text, "workload", e.workload);
    }
    appendWord(m_text, "node", e.node);
    appendWord(m_text, "devices", deviceList(e.devices));
    appendWord(m_text, "placements", joined(e.placements));
    if (!e.message.empty()) {
        m_text += ": ";
        appendOneLine(m_text, e.message);
    }
    m_text += '\n';
}

void TranscriptWriter::onClusterEvent(const ClusterEvent& e)
{
    m_text += formatDuration(e.time);
    m_text += ' ';
    m_text += e.kind;
    m_text += ' ';
    m_text += e.subject;
    if (!e.detail.empty()) {
        m_text += ' ';
        appendOneLine(m_text, e.detail);
    }
    m_text += '\n';
}

} // namespace drasim::sim
