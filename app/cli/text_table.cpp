// SPDX-License-Identifier: Apache-2.0
#include "app/cli/text_table.h"

#include <algorithm>

namespace drasim::cli {

std::string textTable(const std::vector<std::vector<std::string>>& rows, const std::string& align)
{
    std::vector<size_t> width;
    for (const auto& row : rows) {
        width.resize(std::max(width.size(), row.size()));
        for (size_t i = 0; i < row.size(); ++i)
            width[i] = std::max(width[i], row[i].size());
    }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string pad(width[i] - row[i].size(), ' ');
            if (i)
                line += "  ";
            line += i < align.size() && align[i] == 'r' ? pad + row[i] : row[i] + pad;
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

} // namespace drasim::cli
