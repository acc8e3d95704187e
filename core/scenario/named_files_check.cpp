// SPDX-License-Identifier: Apache-2.0
#include "core/scenario/named_files_check.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "core/scenario/named_paths.h"

namespace drasim::scenario {

namespace {

/// The node `field` ("spec.workloads[1].trace.path") names under `root`, or the nearest one above
/// it that the tree holds.
const yamlio::YamlNode& nodeAt(const yamlio::YamlNode& root, const std::string& field)
{
    const yamlio::YamlNode* at = &root;
    size_t i = 0;
    while (i < field.size()) {
        if (field[i] == '.') {
            ++i;
        } else if (field[i] == '[') {
            const size_t close = field.find(']', i);
            const size_t index = std::strtoul(field.c_str() + i + 1, nullptr, 10);
            if (close == std::string::npos || !at->isSequence() || index >= at->items.size())
                return *at;
            at = &at->items[index];
            i = close + 1;
        } else {
            const size_t end = field.find_first_of(".[", i);
            const yamlio::YamlNode* next = at->get(field.substr(i, end - i));
            if (!next)
                return *at;
            at = next;
            i = end == std::string::npos ? field.size() : end;
        }
    }
    return *at;
}

} // namespace

std::map<std::string, SourcePos> namedPathPositions(const Scenario& sc, const yamlio::YamlNode& root)
{
    std::map<std::string, SourcePos> out;
    for (const NamedPath& p : namedPaths(sc))
        out[p.field] = nodeAt(root, p.field).pos;
    return out;
}

std::string whyUnreadable(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); // folders open too (catalog, manifests)
    if (fd < 0)
        return std::strerror(errno);
    ::close(fd);
    return {};
}

bool checkNamedFiles(const Scenario& sc, Diagnostics& diags)
{
    bool ok = true;
    for (const NamedPath& p : namedPaths(sc)) {
        const std::string why = whyUnreadable(p.path);
        if (why.empty())
            continue;
        const auto at = sc.pathPositions.find(p.field);
        diags.error(at == sc.pathPositions.end() ? sc.pos : at->second, "Scenario", sc.name, p.field,
            "cannot read " + p.path + ": " + why);
        ok = false;
    }
    return ok;
}

} // namespace drasim::scenario
