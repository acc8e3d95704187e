// SPDX-License-Identifier: Apache-2.0
#include "core/common/diagnostic.h"

namespace drasim {

std::string Diagnostic::format() const
{
    std::string out;
    if (!pos.file.empty()) {
        out += pos.file;
        if (pos.line > 0) {
            out += ':' + std::to_string(pos.line);
            if (pos.column > 0)
                out += ':' + std::to_string(pos.column);
        }
        out += ": ";
    }
    if (severity == Severity::Warning)
        out += "warning: ";
    if (!objectKind.empty()) {
        out += objectKind;
        if (!objectName.empty())
            out += ' ' + objectName;
        out += ": ";
    }
    if (!fieldPath.empty())
        out += fieldPath + ": ";
    out += message;
    return out;
}

void Diagnostics::add(Diagnostic d)
{
    if (d.severity == Severity::Error) {
        if (m_errorCount >= m_maxErrors) {
            ++m_dropped;
            return;
        }
        ++m_errorCount;
    }
    m_items.push_back(std::move(d));
}

void Diagnostics::error(
    const SourcePos& pos, std::string kind, std::string name, std::string field, std::string msg)
{
    add(Diagnostic {
        Severity::Error, pos, std::move(kind), std::move(name), std::move(field), std::move(msg) });
}

void Diagnostics::warning(
    const SourcePos& pos, std::string kind, std::string name, std::string field, std::string msg)
{
    add(Diagnostic {
        Severity::Warning, pos, std::move(kind), std::move(name), std::move(field), std::move(msg) });
}

void Diagnostics::append(const Diagnostics& other)
{
    for (const auto& d : other.m_items)
        add(d);
    m_dropped += other.m_dropped;
}

std::string Diagnostics::formatAll() const
{
    std::string out;
    for (const auto& d : m_items)
        out += d.format() + '\n';
    if (m_dropped > 0)
        out += "... and " + std::to_string(m_dropped) + " more errors not shown\n";
    return out;
}

} // namespace drasim
