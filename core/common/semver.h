// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace drasim {

/// Semantic version 2.0.0 (major.minor.patch[-pre][+build]), ordered by SemVer precedence.
struct SemVer
{
    uint64_t major = 0;
    uint64_t minor = 0;
    uint64_t patch = 0;
    std::vector<std::string> pre; ///< pre-release identifiers
    std::vector<std::string> build; ///< build metadata (ignored in comparisons)

    /// Strict SemVer 2.0.0. normalize=true also accepts "v1.2" / "1" forms (missing parts = 0,
    /// leading "v" dropped), like the Kubernetes CEL semver(s, true).
    static std::optional<SemVer> parse(
        std::string_view text, bool normalize = false, std::string* error = nullptr);
    std::string toString() const;
    int compare(const SemVer& other) const; ///< precedence: -1, 0, 1
    bool operator==(const SemVer& o) const { return compare(o) == 0; }
};

} // namespace drasim
