// SPDX-License-Identifier: Apache-2.0
#include "core/workload/csv_reader.h"

#include <cerrno>
#include <cstring>

namespace drasim::workload {

CsvReader::CsvReader(const std::string& path)
    : m_path(path)
    , m_in(path, std::ios::binary)
{
    m_ok = m_in.is_open();
    if (!m_ok)
        m_error = "cannot open " + path + ": " + std::strerror(errno);
}

std::optional<std::string> CsvReader::splitLine(std::string_view line, CsvRow& row)
{
    row.fields.clear();
    row.columns.clear();
    size_t i = 0;
    while (true) {
        row.columns.push_back(int(i) + 1);
        std::string field;
        if (i < line.size() && line[i] == '"') {
            ++i;
            while (true) {
                if (i >= line.size())
                    return std::string("unterminated quoted field");
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        field += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                field += line[i++];
            }
            if (i < line.size() && line[i] != ',')
                return std::string("unexpected character after a closing quote");
        } else {
            const size_t comma = line.find(',', i);
            const size_t end = comma == std::string_view::npos ? line.size() : comma;
            field.assign(line.substr(i, end - i));
            i = end;
        }
        row.fields.push_back(std::move(field));
        if (i >= line.size())
            break;
        ++i; // the comma
    }
    return std::nullopt;
}

std::optional<CsvRow> CsvReader::next(Diagnostics& diags, const char* objectKind)
{
    if (!m_ok)
        return std::nullopt;
    while (std::getline(m_in, m_line)) {
        ++m_lineNo;
        if (!m_line.empty() && m_line.back() == '\r')
            m_line.pop_back();
        if (m_line.empty())
            continue;
        CsvRow row;
        row.line = m_lineNo;
        if (auto err = splitLine(m_line, row)) {
            diags.error(SourcePos { m_path, m_lineNo, 1 }, objectKind, "", "", *err);
            continue;
        }
        return row;
    }
    return std::nullopt;
}

bool validTraceName(const std::string& s)
{
    if (s.empty() || s.size() > 253)
        return false;
    auto lowerAlnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    for (char c : s)
        if (!lowerAlnum(c) && c != '-' && c != '.')
            return false;
    return lowerAlnum(s.front()) && lowerAlnum(s.back());
}

} // namespace drasim::workload
