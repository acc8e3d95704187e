// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace drasim {

/// Where something came from in an input file. line/column are 1-based; 0 means unknown.
struct SourcePos
{
    std::string file;
    int line = 0;
    int column = 0;
};

enum class Severity { Error, Warning };

/// One problem found in the input, located as precisely as the input allows.
/// Printed as `file:line:column: Kind namespace/name: field.path: message`.
struct Diagnostic
{
    Severity severity = Severity::Error;
    SourcePos pos;
    std::string objectKind; ///< e.g. "ResourceSlice"; empty when not inside an object
    std::string objectName; ///< "namespace/name" or "name"
    std::string fieldPath; ///< e.g. "spec.devices[3].attributes.model"
    std::string message;

    std::string format() const;
};

/// Collects diagnostics with a cap, so a file with a million errors does not flood the terminal.
class Diagnostics
{
public:
    explicit Diagnostics(size_t maxErrors = 100)
        : m_maxErrors(maxErrors)
    { }

    void add(Diagnostic d);
    void error(const SourcePos& pos, std::string kind, std::string name, std::string field, std::string msg);
    void warning(
        const SourcePos& pos, std::string kind, std::string name, std::string field, std::string msg);
    void append(const Diagnostics& other);

    bool hasErrors() const { return m_errorCount > 0; }
    size_t errorCount() const { return m_errorCount; }
    /// True once the cap is reached: callers may stop early.
    bool full() const { return m_errorCount >= m_maxErrors; }
    const std::vector<Diagnostic>& all() const { return m_items; }
    /// Every diagnostic formatted, one per line, plus a note when errors were dropped.
    std::string formatAll() const;

private:
    size_t m_maxErrors;
    size_t m_errorCount = 0;
    size_t m_dropped = 0;
    std::vector<Diagnostic> m_items;
};

} // namespace drasim
