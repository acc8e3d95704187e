// SPDX-License-Identifier: Apache-2.0
#include "core/topology/cpu_list.h"

#include <algorithm>
#include <charconv>

namespace drasim::topology {

namespace {

// Bounds the ids so a typo such as "0-99999999" cannot allocate gigabytes.
constexpr int kMaxCpuId = 1 << 20;

bool parseId(std::string_view text, int& out)
{
    if (text.empty())
        return false;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && p == text.data() + text.size() && out >= 0 && out <= kMaxCpuId;
}

} // namespace

std::optional<std::vector<int>> parseCpuList(std::string_view text)
{
    std::vector<int> out;
    if (text.empty())
        return std::nullopt;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find(',', i);
        if (j == std::string_view::npos)
            j = text.size();
        std::string_view part = text.substr(i, j - i);
        const size_t dash = part.find('-');
        int a = 0, b = 0;
        if (dash == std::string_view::npos) {
            if (!parseId(part, a))
                return std::nullopt;
            out.push_back(a);
        } else {
            if (!parseId(part.substr(0, dash), a) || !parseId(part.substr(dash + 1), b) || b < a)
                return std::nullopt;
            for (int k = a; k <= b; ++k)
                out.push_back(k);
        }
        if (j == text.size())
            break;
        i = j + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string formatCpuList(const std::vector<int>& cpus)
{
    std::string out;
    for (size_t i = 0; i < cpus.size();) {
        size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1)
            ++j;
        if (!out.empty())
            out += ',';
        out += std::to_string(cpus[i]);
        if (j > i)
            out += '-' + std::to_string(cpus[j]);
        i = j + 1;
    }
    return out;
}

} // namespace drasim::topology
