// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/diagnostic.h"

namespace drasim::workload {

/// One CSV record with the position of every field, for file:line:column diagnostics.
struct CsvRow
{
    int line = 0;
    std::vector<std::string> fields;
    std::vector<int> columns; ///< 1-based column of each field's first character

    SourcePos pos(const std::string& file, size_t field) const
    {
        return SourcePos { file, line, field < columns.size() ? columns[field] : 1 };
    }
};

/// Streams a CSV file record by record (RFC 4180 subset: comma separator, optional double
/// quotes with "" escapes, LF or CRLF line ends; a quoted field may not span lines). Blank lines
/// are skipped. Memory use is one line, whatever the file size.
class CsvReader
{
public:
    explicit CsvReader(const std::string& path);
    /// False when the file could not be opened; error() says why.
    bool ok() const { return m_ok; }
    const std::string& error() const { return m_error; }
    const std::string& path() const { return m_path; }
    /// The next record, or nullopt at end of file. A malformed line (unterminated quote) is
    /// reported to `diags` and skipped.
    std::optional<CsvRow> next(Diagnostics& diags, const char* objectKind);

    /// Splits one line; returns an error message instead when it is malformed.
    static std::optional<std::string> splitLine(std::string_view line, CsvRow& row);

private:
    std::string m_path;
    std::ifstream m_in;
    std::string m_line;
    int m_lineNo = 0;
    bool m_ok = false;
    std::string m_error;
};

/// A job, pod or node name a trace row may carry: one usable as a Kubernetes object name (lowercase
/// letters, digits, '-' and '.', a letter or digit at both ends, at most 253 characters).
/// Decision: another name is an error of its row, never rewritten; the real Alibaba trace's all fit.
bool validTraceName(const std::string& s);

} // namespace drasim::workload
