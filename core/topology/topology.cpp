// SPDX-License-Identifier: Apache-2.0
#include "core/topology/topology.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>

namespace drasim::topology {

const char* distanceClassName(DistanceClass c)
{
    switch (c) {
    case DistanceClass::Self:
        return "X";
    case DistanceClass::Fabric:
        return "NV";
    case DistanceClass::Pix:
        return "PIX";
    case DistanceClass::Pxb:
        return "PXB";
    case DistanceClass::Phb:
        return "PHB";
    case DistanceClass::Node:
        return "NODE";
    case DistanceClass::Sys:
        return "SYS";
    }
    return "SYS";
}

std::string Distance::label() const
{
    if (cls != DistanceClass::Fabric)
        return distanceClassName(cls);
    std::string prefix = "NV";
    if (!fabricType.empty() && fabricType != "nvlink") {
        prefix.clear();
        for (char ch : fabricType)
            prefix += char(std::toupper(static_cast<unsigned char>(ch)));
    }
    return prefix + std::to_string(links);
}

std::optional<Distance> parseDistanceLabel(std::string_view text)
{
    Distance d;
    if (text == "X") {
        d.cls = DistanceClass::Self;
        return d;
    }
    static const std::pair<const char*, DistanceClass> plain[] = {
        { "PIX", DistanceClass::Pix },
        { "PXB", DistanceClass::Pxb },
        { "PHB", DistanceClass::Phb },
        { "NODE", DistanceClass::Node },
        { "SYS", DistanceClass::Sys },
        { "SOC", DistanceClass::Sys },
    };
    for (const auto& [name, cls] : plain) {
        if (text == name) {
            d.cls = cls;
            return d;
        }
    }
    if (text.size() > 2 && text.substr(0, 2) == "NV") {
        int links = 0;
        auto digits = text.substr(2);
        auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), links);
        if (ec == std::errc() && p == digits.data() + digits.size() && links > 0) {
            d.cls = DistanceClass::Fabric;
            d.links = links;
            d.fabricType = "nvlink";
            return d;
        }
    }
    return std::nullopt;
}

namespace {

enum class EdgeKind { Pcie, Attach, Numa, Fabric };

struct EdgeProps
{
    EdgeKind kind = EdgeKind::Pcie;
    int links = 0;
};

using Graph
    = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, EdgeProps>;
using Vertex = Graph::vertex_descriptor;

struct KindFilter
{
    const Graph* g = nullptr;
    EdgeKind kind = EdgeKind::Pcie;
    bool operator()(const Graph::edge_descriptor& e) const { return (*g)[e].kind == kind; }
};

// Records BFS predecessors so a path can be read back from any reached vertex.
class PredecessorRecorder : public boost::default_bfs_visitor
{
public:
    explicit PredecessorRecorder(std::vector<int>* pred)
        : m_pred(pred)
    { }
    template <class Edge, class G> void tree_edge(Edge e, const G& g) const
    {
        (*m_pred)[boost::target(e, g)] = int(boost::source(e, g));
    }

private:
    std::vector<int>* m_pred;
};

} // namespace

struct Topology::Impl
{
    NodeShape shape;
    Graph graph;
    size_t componentCount = 0;
    std::vector<int> endpoints;
    std::vector<int> numa; // per component
    std::vector<int> root; // per component
    std::vector<int> island; // per component
    std::vector<std::vector<int>> islands;
    // Per endpoint (position in `endpoints`): BFS predecessors over PCIe edges.
    std::vector<std::vector<int>> pciePred;
    std::vector<int> endpointPos; // component → position in endpoints, -1 otherwise
    std::vector<Distance> matrix; // endpoints × endpoints
    // Fabric links between two components, summed over fabrics; key (min, max).
    std::map<std::pair<int, int>, std::pair<int, std::string>> fabricLinks;

    Distance compute(int a, int b) const;
    std::vector<int> treePath(int a, int b) const;
    void applyObserved();
};

Topology::Topology(NodeShape shape)
    : m_impl(std::make_unique<Impl>())
{
    Impl& d = *m_impl;
    d.shape = std::move(shape);
    const auto& comps = d.shape.components;
    d.componentCount = comps.size();
    const size_t n = comps.size();

    // Vertices: components, then one per NUMA node, then one per switched fabric.
    std::map<int, Vertex> numaVertex;
    d.graph = Graph(n);
    for (const auto& nn : d.shape.numaNodes)
        numaVertex[nn.id] = boost::add_vertex(d.graph);
    for (size_t i = 0; i < n; ++i) {
        const auto& c = comps[i];
        if (c.parent >= 0 && size_t(c.parent) < n)
            boost::add_edge(Vertex(i), Vertex(c.parent), EdgeProps { EdgeKind::Pcie, 0 }, d.graph);
        if (c.kind == ComponentKind::RootComplex) {
            auto it = numaVertex.find(c.numaNode);
            if (it != numaVertex.end())
                boost::add_edge(Vertex(i), it->second, EdgeProps { EdgeKind::Attach, 0 }, d.graph);
        }
    }
    // NUMA nodes are fully meshed (socket-local or over the inter-socket link).
    for (auto a = numaVertex.begin(); a != numaVertex.end(); ++a)
        for (auto b = std::next(a); b != numaVertex.end(); ++b)
            boost::add_edge(a->second, b->second, EdgeProps { EdgeKind::Numa, 0 }, d.graph);
    for (const auto& f : d.shape.fabrics) {
        if (f.switched) {
            Vertex fv = boost::add_vertex(d.graph);
            for (int m : f.members)
                if (m >= 0 && size_t(m) < n)
                    boost::add_edge(Vertex(m), fv, EdgeProps { EdgeKind::Fabric, f.linksPerDevice }, d.graph);
            for (size_t x = 0; x < f.members.size(); ++x)
                for (size_t y = x + 1; y < f.members.size(); ++y) {
                    auto key = std::minmax(f.members[x], f.members[y]);
                    auto& slot = d.fabricLinks[{ key.first, key.second }];
                    slot.first += f.linksPerDevice;
                    slot.second = f.type;
                }
        } else {
            for (const auto& p : f.pairs) {
                if (p.a < 0 || p.b < 0 || size_t(p.a) >= n || size_t(p.b) >= n)
                    continue;
                boost::add_edge(Vertex(p.a), Vertex(p.b), EdgeProps { EdgeKind::Fabric, p.links }, d.graph);
                auto key = std::minmax(p.a, p.b);
                auto& slot = d.fabricLinks[{ key.first, key.second }];
                slot.first += p.links;
                slot.second = f.type;
            }
        }
    }

    d.root.assign(n, -1);
    d.numa.assign(n, -1);
    for (size_t i = 0; i < n; ++i) {
        d.root[i] = d.shape.rootOf(int(i));
        d.numa[i]
            = comps[i].numaNode >= 0 ? comps[i].numaNode : (d.root[i] >= 0 ? comps[d.root[i]].numaNode : -1);
    }

    d.endpointPos.assign(n, -1);
    for (size_t i = 0; i < n; ++i) {
        if (isEndpoint(comps[i].kind)) {
            d.endpointPos[i] = int(d.endpoints.size());
            d.endpoints.push_back(int(i));
        }
    }

    // PCIe-only view: a BFS from each endpoint gives its tree path to every PCIe neighbour.
    KindFilter pcieOnly { &d.graph, EdgeKind::Pcie };
    boost::filtered_graph<Graph, KindFilter> pcie(d.graph, pcieOnly);
    const size_t vcount = boost::num_vertices(d.graph);
    for (int e : d.endpoints) {
        std::vector<int> pred(vcount, -2);
        pred[e] = -1;
        boost::breadth_first_search(pcie, Vertex(e), boost::visitor(PredecessorRecorder(&pred)));
        d.pciePred.push_back(std::move(pred));
    }

    // Fabric islands: connected components of the fabric-only view, over endpoints in a fabric.
    KindFilter fabricOnly { &d.graph, EdgeKind::Fabric };
    boost::filtered_graph<Graph, KindFilter> fabric(d.graph, fabricOnly);
    std::vector<int> compOf(vcount, -1);
    boost::connected_components(
        fabric, boost::make_iterator_property_map(compOf.begin(), boost::get(boost::vertex_index, fabric)));
    std::vector<bool> inFabric(n, false);
    for (const auto& f : d.shape.fabrics) {
        for (int m : f.members)
            if (m >= 0 && size_t(m) < n)
                inFabric[m] = true;
        for (const auto& p : f.pairs) {
            if (p.a >= 0 && size_t(p.a) < n)
                inFabric[p.a] = true;
            if (p.b >= 0 && size_t(p.b) < n)
                inFabric[p.b] = true;
        }
    }
    std::map<int, int> islandIndex; // boost component id → our island index (first-member order)
    d.island.assign(n, -1);
    for (int e : d.endpoints) {
        if (!inFabric[e])
            continue;
        auto [it, added] = islandIndex.emplace(compOf[e], int(d.islands.size()));
        if (added)
            d.islands.emplace_back();
        d.islands[it->second].push_back(e);
        d.island[e] = it->second;
    }

    const size_t m = d.endpoints.size();
    d.matrix.resize(m * m);
    for (size_t x = 0; x < m; ++x)
        for (size_t y = 0; y < m; ++y)
            d.matrix[x * m + y] = d.compute(d.endpoints[x], d.endpoints[y]);
    d.applyObserved();
}

// An imported capture is the observation: its cells win over what the rebuilt tree gives, so
// a matrix no PCIe tree explains (SYS between devices on one NUMA node) is still reported as is.
void Topology::Impl::applyObserved()
{
    const auto& rows = shape.observed.rows;
    const size_t m = endpoints.size();
    auto position = [this](int component) {
        return component >= 0 && size_t(component) < endpointPos.size() ? endpointPos[component] : -1;
    };
    for (const auto& row : rows) {
        const int pa = position(row.component);
        if (pa < 0)
            continue;
        for (size_t k = 0; k < row.cells.size() && k < rows.size(); ++k) {
            const int pb = position(rows[k].component);
            auto cell = parseDistanceLabel(row.cells[k]);
            if (pb < 0 || !cell)
                continue;
            matrix[size_t(pa) * m + size_t(pb)] = *cell;
        }
    }
}

Topology::~Topology() = default;

std::vector<int> Topology::Impl::treePath(int a, int b) const
{
    // Uses a's BFS when a is an endpoint, else b's; falls back to walking parents.
    auto walkUp = [this](int c) {
        std::vector<int> up;
        for (size_t guard = 0; c >= 0 && guard <= componentCount; ++guard) {
            up.push_back(c);
            c = shape.components[c].parent;
        }
        return up;
    };
    if (a >= 0 && size_t(a) < endpointPos.size() && endpointPos[a] >= 0) {
        const auto& pred = pciePred[endpointPos[a]];
        if (pred[b] != -2) {
            std::vector<int> path;
            for (int v = b; v >= 0; v = pred[v])
                path.push_back(v);
            std::reverse(path.begin(), path.end());
            return path;
        }
        return {};
    }
    auto ua = walkUp(a);
    auto ub = walkUp(b);
    for (size_t i = 0; i < ua.size(); ++i) {
        auto it = std::find(ub.begin(), ub.end(), ua[i]);
        if (it != ub.end()) {
            std::vector<int> path(ua.begin(), ua.begin() + i + 1);
            for (auto r = std::make_reverse_iterator(it); r != ub.rend(); ++r)
                path.push_back(*r);
            return path;
        }
    }
    return {};
}

Distance Topology::Impl::compute(int a, int b) const
{
    Distance d;
    if (a == b) {
        d.cls = DistanceClass::Self;
        return d;
    }
    auto key = std::minmax(a, b);
    auto f = fabricLinks.find({ key.first, key.second });
    if (f != fabricLinks.end() && f->second.first > 0) {
        d.cls = DistanceClass::Fabric;
        d.links = f->second.first;
        d.fabricType = f->second.second;
        return d;
    }
    auto path = treePath(a, b);
    if (!path.empty()) {
        int bridges = 0;
        bool viaHost = false;
        for (size_t i = 1; i + 1 < path.size(); ++i) {
            auto k = shape.components[path[i]].kind;
            if (k == ComponentKind::RootComplex)
                viaHost = true;
            else if (k == ComponentKind::Switch || k == ComponentKind::Bridge)
                ++bridges;
        }
        d.cls = viaHost ? DistanceClass::Phb : (bridges <= 1 ? DistanceClass::Pix : DistanceClass::Pxb);
        return d;
    }
    const int na = numa[a];
    const int nb = numa[b];
    d.cls = (na >= 0 && na == nb) ? DistanceClass::Node : DistanceClass::Sys;
    return d;
}

const NodeShape& Topology::shape() const
{
    return m_impl->shape;
}

const std::vector<int>& Topology::endpoints() const
{
    return m_impl->endpoints;
}

Distance Topology::distance(int a, int b) const
{
    const Impl& d = *m_impl;
    const int n = int(d.componentCount);
    if (a < 0 || b < 0 || a >= n || b >= n)
        return {};
    const int pa = d.endpointPos[a];
    const int pb = d.endpointPos[b];
    if (pa >= 0 && pb >= 0)
        return d.matrix[size_t(pa) * d.endpoints.size() + size_t(pb)];
    return d.compute(a, b);
}

std::vector<int> Topology::pciePath(int a, int b) const
{
    const Impl& d = *m_impl;
    const int n = int(d.componentCount);
    if (a < 0 || b < 0 || a >= n || b >= n)
        return {};
    auto path = d.treePath(a, b);
    if (!path.empty())
        return path;
    // Different root complexes: up from a to its root, then down from b's root.
    std::vector<int> up;
    for (int c = a; c >= 0 && up.size() <= d.componentCount; c = d.shape.components[c].parent)
        up.push_back(c);
    std::vector<int> down;
    for (int c = b; c >= 0 && down.size() <= d.componentCount; c = d.shape.components[c].parent)
        down.push_back(c);
    up.insert(up.end(), down.rbegin(), down.rend());
    return up;
}

std::string Topology::describePath(int a, int b) const
{
    const Impl& d = *m_impl;
    auto dist = distance(a, b);
    const auto& comps = d.shape.components;
    if (a < 0 || b < 0 || size_t(a) >= comps.size() || size_t(b) >= comps.size())
        return {};
    if (dist.cls == DistanceClass::Fabric)
        return comps[a].name + " =" + dist.label() + "= " + comps[b].name;
    auto path = pciePath(a, b);
    std::string out;
    for (size_t i = 0; i < path.size(); ++i) {
        if (i > 0) {
            const bool crossing = comps[path[i - 1]].kind == ComponentKind::RootComplex
                && comps[path[i]].kind == ComponentKind::RootComplex;
            if (crossing) {
                const int na = d.numa[path[i - 1]];
                const int nb = d.numa[path[i]];
                out += " -> NUMA " + std::to_string(na);
                if (na != nb)
                    out += " => NUMA " + std::to_string(nb);
            }
            out += " -> ";
        }
        out += comps[path[i]].name;
    }
    return out;
}

int Topology::numaNode(int component) const
{
    if (component < 0 || size_t(component) >= m_impl->componentCount)
        return -1;
    return m_impl->numa[component];
}

int Topology::socket(int component) const
{
    return m_impl->shape.socketOfNuma(numaNode(component));
}

std::string Topology::pcieRoot(int component) const
{
    if (component < 0 || size_t(component) >= m_impl->componentCount)
        return {};
    const int r = m_impl->root[component];
    if (r < 0 || m_impl->shape.components[r].busId.empty())
        return {};
    return "pci" + m_impl->shape.components[r].busId;
}

const std::vector<std::vector<int>>& Topology::fabricIslands() const
{
    return m_impl->islands;
}

int Topology::islandOf(int component) const
{
    if (component < 0 || size_t(component) >= m_impl->componentCount)
        return -1;
    return m_impl->island[component];
}

std::map<std::string, std::vector<int>> Topology::devicesByRoot() const
{
    std::map<std::string, std::vector<int>> out;
    for (int e : m_impl->endpoints) {
        const int r = m_impl->root[e];
        if (r >= 0)
            out[m_impl->shape.components[r].name].push_back(e);
    }
    return out;
}

} // namespace drasim::topology
