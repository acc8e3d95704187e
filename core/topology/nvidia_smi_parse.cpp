// SPDX-License-Identifier: Apache-2.0
// `nvidia-smi topo -m` text → Capture: the header, each device's row and the NIC legend, with
// the line and column of every cell so later warnings can point at them. Accepts what people
// paste: tab- or space-separated output, ANSI colour codes, shell prompts and legends around it.
#include <algorithm>
#include <cctype>
#include <set>

#include "core/topology/nvidia_smi_capture.h"

namespace drasim::topology {

namespace {

struct Token
{
    std::string text;
    int column = 0; // 1-based
};

std::string stripAnsi(std::string_view line)
{
    std::string out;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i])))
                ++i;
            continue;
        }
        if (line[i] != '\r')
            out += line[i];
    }
    return out;
}

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> lines;
    size_t i = 0;
    while (i <= text.size()) {
        size_t j = text.find('\n', i);
        if (j == std::string_view::npos)
            j = text.size();
        lines.push_back(stripAnsi(text.substr(i, j - i)));
        if (j == text.size())
            break;
        i = j + 1;
    }
    return lines;
}

// Splits on tabs when the line has them (nvidia-smi's own separator, cells may hold spaces such
// as " X "), otherwise on runs of spaces (copied output).
std::vector<Token> tokenize(const std::string& line)
{
    std::vector<Token> out;
    const bool tabs = line.find('\t') != std::string::npos;
    size_t i = 0;
    while (i <= line.size()) {
        size_t j = i;
        if (tabs) {
            j = line.find('\t', i);
            if (j == std::string::npos)
                j = line.size();
            std::string cell = line.substr(i, j - i);
            size_t b = cell.find_first_not_of(' ');
            size_t e = cell.find_last_not_of(' ');
            out.push_back({ b == std::string::npos ? std::string() : cell.substr(b, e - b + 1),
                int(i + (b == std::string::npos ? 0 : b)) + 1 });
            i = j + 1;
            if (j == line.size())
                break;
        } else {
            while (i < line.size() && line[i] == ' ')
                ++i;
            if (i >= line.size())
                break;
            j = i;
            while (j < line.size() && line[j] != ' ')
                ++j;
            out.push_back({ line.substr(i, j - i), int(i) + 1 });
            i = j;
        }
    }
    return out;
}

bool looksLikeDeviceHeader(const std::vector<Token>& t)
{
    return !t.empty() && (t[0].text.rfind("GPU", 0) == 0 || t[0].text.rfind("NIC", 0) == 0)
        && t[0].text.size() > 3 && std::isdigit(static_cast<unsigned char>(t[0].text[3]));
}

struct SmiTableParser
{
    const std::string& fileName;
    const std::string& shapeName;
    Diagnostics& diags;
    smi::Capture& cap;
    std::vector<std::string> lines;
    std::map<std::string, int> column;
    std::vector<bool> haveRow;

    void error(int line, int col, const std::string& field, const std::string& msg)
    {
        diags.error(SourcePos { fileName, line, col }, "NodeShape", shapeName, field, msg);
    }
    void warn(int line, int col, const std::string& field, const std::string& msg)
    {
        diags.warning(SourcePos { fileName, line, col }, "NodeShape", shapeName, field, msg);
    }

    // The header is the first line whose first cell is GPU0/NIC0 and whose second is not a
    // distance label (that would be a row).
    bool findHeader()
    {
        for (size_t l = 0; l < lines.size(); ++l) {
            auto toks = tokenize(lines[l]);
            if (!toks.empty() && toks[0].text.empty())
                toks.erase(toks.begin());
            if (!looksLikeDeviceHeader(toks))
                continue;
            if (toks.size() > 1 && parseDistanceLabel(toks[1].text))
                continue;
            cap.headerLine = int(l) + 1;
            for (const auto& t : toks) {
                if (t.text.rfind("CPU", 0) == 0) {
                    cap.hasCpuAffinity = true;
                    break;
                }
                if (t.text.rfind("NUMA", 0) == 0)
                    break;
                smi::DeviceRow d;
                d.label = t.text;
                d.gpu = t.text.rfind("GPU", 0) == 0;
                cap.devices.push_back(d);
            }
            for (const auto& t : toks)
                if (t.text.find("NUMA") != std::string::npos)
                    cap.hasNumaAffinity = true;
            return true;
        }
        error(1, 1, "",
            "no nvidia-smi topology matrix found (expected a header line \"GPU0 GPU1 ... CPU Affinity\")");
        return false;
    }

    void readCells(smi::DeviceRow& dev, size_t row, const std::vector<Token>& toks, int lineNo)
    {
        const size_t n = cap.devices.size();
        dev.cells.assign(n, smi::Cell {});
        for (size_t c = 0; c < n; ++c) {
            const Token& cell = toks[c + 1];
            const std::string field = "matrix." + dev.label + "." + cap.devices[c].label;
            auto d = parseDistanceLabel(cell.text);
            if (!d) {
                error(lineNo, cell.column, field,
                    "unknown topology label \"" + cell.text
                        + "\" (expected X, NV#, PIX, PXB, PHB, NODE or SYS)");
                continue;
            }
            if ((c == row) != (d->cls == DistanceClass::Self)) {
                error(lineNo, cell.column, field,
                    c == row ? "the diagonal must be X" : "X is only valid on the diagonal");
                continue;
            }
            dev.cells[c] = smi::Cell { cell.text, *d, lineNo, cell.column };
        }
    }

    // CPU Affinity, then NUMA Affinity; the GPU NUMA ID column newer drivers add is not used.
    // nvidia-smi pads these columns with extra tabs, so empty cells between them are skipped.
    void readAffinity(smi::DeviceRow& dev, std::vector<Token> toks, int lineNo)
    {
        size_t k = cap.devices.size() + 1;
        toks.erase(std::remove_if(toks.begin() + std::ptrdiff_t(std::min(k, toks.size())), toks.end(),
                       [](const Token& t) { return t.text.empty(); }),
            toks.end());
        if (cap.hasCpuAffinity && k < toks.size()) {
            dev.cpuAffinity = toks[k].text;
            dev.cpuColumn = toks[k].column;
            ++k;
        }
        if (cap.hasNumaAffinity && k < toks.size()) {
            const std::string& v = toks[k].text;
            dev.numaAffinity = v;
            dev.numaColumn = toks[k].column;
            const bool number = !v.empty() && v.size() < 6 && std::all_of(v.begin(), v.end(), [](char ch) {
                return std::isdigit(static_cast<unsigned char>(ch));
            });
            if (v != "N/A" && !number)
                error(lineNo, toks[k].column, "matrix." + dev.label + ".numaAffinity",
                    "NUMA affinity \"" + v + "\" is not a node number");
        }
    }

    void readRows()
    {
        const size_t n = cap.devices.size();
        for (size_t i = 0; i < n; ++i)
            column[cap.devices[i].label] = int(i);
        haveRow.assign(n, false);
        for (size_t l = size_t(cap.headerLine); l < lines.size(); ++l) {
            const int lineNo = int(l) + 1;
            auto toks = tokenize(lines[l]);
            while (!toks.empty() && toks.back().text.empty())
                toks.pop_back();
            if (toks.empty())
                continue;
            const std::string& first = toks[0].text;
            // "  NIC0: mlx5_0" lines of the NIC legend.
            if (first.size() > 1 && first.back() == ':' && column.count(first.substr(0, first.size() - 1))
                && toks.size() >= 2) {
                cap.nicLegend[first.substr(0, first.size() - 1)] = toks[1].text;
                continue;
            }
            auto it = column.find(first);
            if (it == column.end())
                continue; // legend text, prompts and anything else
            const int row = it->second;
            smi::DeviceRow& dev = cap.devices[size_t(row)];
            if (haveRow[row]) {
                error(lineNo, toks[0].column, "matrix." + first, "row " + first + " appears twice");
                continue;
            }
            haveRow[row] = true;
            dev.line = lineNo;
            if (toks.size() < n + 1) {
                error(lineNo, toks.back().column, "matrix." + first,
                    "row has " + std::to_string(toks.size() - 1) + " cells, the header lists "
                        + std::to_string(n) + " devices");
                continue;
            }
            readCells(dev, size_t(row), toks, lineNo);
            readAffinity(dev, toks, lineNo);
        }
    }

    void checkHeaderAndRows()
    {
        std::set<std::string> seen;
        for (const auto& d : cap.devices)
            if (!seen.insert(d.label).second)
                error(cap.headerLine, 1, "header", "device " + d.label + " appears twice in the header");
        for (size_t i = 0; i < cap.devices.size(); ++i)
            if (!haveRow[i])
                error(cap.headerLine, 1, "matrix." + cap.devices[i].label,
                    "the header lists " + cap.devices[i].label + " but it has no row");
    }

    // Cells that cannot be printed back as given are named here; the rest is kept verbatim.
    void warnAboutCells()
    {
        const size_t n = cap.devices.size();
        for (size_t a = 0; a < n; ++a) {
            for (size_t b = 0; b < n; ++b) {
                const smi::Cell& cell = cap.devices[a].cells[b];
                if (cell.text == "SOC")
                    warn(cell.line, cell.column,
                        "matrix." + cap.devices[a].label + "." + cap.devices[b].label,
                        "SOC is the old name of SYS; kept as SYS");
                if (b >= a)
                    continue;
                const smi::Cell& upper = cap.devices[b].cells[a];
                if (!(cell.distance == upper.distance))
                    warn(cell.line, cell.column,
                        "matrix." + cap.devices[a].label + "." + cap.devices[b].label,
                        "matrix is not symmetric (" + upper.distance.label() + " vs " + cell.distance.label()
                            + "); both cells are kept as observed, the PCIe tree follows the upper triangle");
            }
        }
    }
};

} // namespace

bool smi::parseCapture(std::string_view text, const std::string& fileName, const std::string& shapeName,
    Capture& out, Diagnostics& diags)
{
    const size_t errorsBefore = diags.errorCount();
    out = Capture {};
    out.fileName = fileName;
    SmiTableParser p { fileName, shapeName, diags, out, splitLines(text), {}, {} };
    if (!p.findHeader())
        return false;
    p.readRows();
    p.checkHeaderAndRows();
    if (diags.errorCount() != errorsBefore)
        return false;
    p.warnAboutCells();
    return true;
}

bool importNvidiaSmiTopo(std::string_view text, const std::string& fileName, const ImportOptions& options,
    NodeShape& out, Diagnostics& diags)
{
    smi::Capture capture;
    if (!smi::parseCapture(text, fileName, options.shapeName, capture, diags))
        return false;
    return smi::buildShapeFromCapture(capture, options, out, diags);
}

} // namespace drasim::topology
