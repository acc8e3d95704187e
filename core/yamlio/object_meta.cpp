// SPDX-License-Identifier: Apache-2.0
#include "core/yamlio/names.h"
#include "core/yamlio/object_readers.h"

namespace drasim::yamlio {

uint32_t findKey(const lean::Document& doc, uint32_t map, std::string_view key)
{
    const lean::Node& m = doc.nodes[map];
    if (m.kind != YamlNode::Kind::Map)
        return 0;
    uint32_t c = map + 1;
    for (uint32_t k = 0; k < m.children; k += 2) {
        const uint32_t value = doc.next(c);
        if (doc.nodes[c].kind == YamlNode::Kind::Scalar && doc.scalar(c) == key)
            return value;
        c = doc.next(value);
    }
    return 0;
}

std::string peekObjectName(const Reader& r, uint32_t root, bool namespaced)
{
    const lean::Document& doc = r.doc();
    const uint32_t meta = findKey(doc, root, "metadata");
    if (meta == 0)
        return {};
    std::string name, ns;
    if (uint32_t n = findKey(doc, meta, "name"); n && doc.nodes[n].kind == YamlNode::Kind::Scalar)
        name = std::string(doc.scalar(n));
    else if (uint32_t g = findKey(doc, meta, "generateName");
             g && doc.nodes[g].kind == YamlNode::Kind::Scalar)
        name = std::string(doc.scalar(g));
    if (namespaced) {
        ns = "default";
        if (uint32_t n = findKey(doc, meta, "namespace"); n && doc.nodes[n].kind == YamlNode::Kind::Scalar)
            ns = std::string(doc.scalar(n));
        return ns + "/" + name;
    }
    return name;
}

void readLabels(Reader& r, uint32_t node, const Path& p, api::Labels& out)
{
    r.getStringMap(node, p, out);
    for (const auto& [k, val] : out) {
        if (auto e = checkLabelKey(k); !e.empty())
            r.invalid(node, p, k, e);
        if (auto e = checkLabelValue(val); !e.empty())
            r.invalid(node, p.key(k), val, e);
    }
}

void readObjectMeta(
    Reader& r, uint32_t node, const Path& p, bool namespaced, api::ObjectMeta& out, NameRule nameRule)
{
    uint32_t nameNode = node, nsNode = 0;
    r.fields(node, p, [&](std::string_view key, uint32_t, uint32_t v) {
        if (key == "name") {
            nameNode = v;
            r.getString(v, p.field(key), out.name);
        } else if (key == "generateName") {
            r.getString(v, p.field(key), out.generateName);
        } else if (key == "namespace") {
            nsNode = v;
            r.getString(v, p.field(key), out.namespace_);
        } else if (key == "uid") {
            r.getString(v, p.field(key), out.uid);
        } else if (key == "labels") {
            readLabels(r, v, p.field(key), out.labels);
        } else if (key == "annotations") {
            const Path ap = p.field(key);
            r.getStringMap(v, ap, out.annotations);
            for (const auto& [k, val] : out.annotations)
                if (auto e = checkLabelKey(k); !e.empty())
                    r.invalid(v, ap, k, e);
        } else if (key == "ownerReferences") {
            r.items(v, p.field(key), [&](size_t, uint32_t item, const Path& ip) {
                api::OwnerReference ref;
                r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t val) {
                    if (k == "apiVersion")
                        r.getString(val, ip.field(k), ref.apiVersion);
                    else if (k == "kind")
                        r.getString(val, ip.field(k), ref.kind);
                    else if (k == "name")
                        r.getString(val, ip.field(k), ref.name);
                    else if (k == "uid")
                        r.getString(val, ip.field(k), ref.uid);
                    else if (k == "controller")
                        r.getBool(val, ip.field(k), ref.controller);
                    else if (k != "blockOwnerDeletion")
                        return false;
                    return true;
                });
                out.ownerReferences.push_back(std::move(ref));
            });
        } else if (key == "finalizers") {
            r.getStringList(v, p.field(key), out.finalizers);
        } else if (key == "resourceVersion" || key == "generation" || key == "creationTimestamp"
            || key == "deletionTimestamp" || key == "deletionGracePeriodSeconds" || key == "selfLink"
            || key == "managedFields") {
            // Server-set bookkeeping in `kubectl get -o yaml` dumps: accepted and dropped.
        } else {
            return false;
        }
        return true;
    });
    if (out.name.empty()) {
        if (!out.generateName.empty()) {
            // The API server would add 5 random characters; we keep it deterministic.
            out.name = out.generateName + "00000";
        } else {
            r.required(nameNode, p.field("name"));
        }
    } else if (auto e = nameRule == NameRule::Dns1035Label ? checkDns1035Label(out.name)
                                                           : checkDnsSubdomain(out.name);
               !e.empty()) {
        r.invalid(nameNode, p.field("name"), out.name, e);
    }
    if (namespaced) {
        if (out.namespace_.empty())
            out.namespace_ = "default";
        else if (auto e = checkDnsLabel(out.namespace_); !e.empty())
            r.invalid(nsNode, p.field("namespace"), out.namespace_, e);
    } else if (!out.namespace_.empty()) {
        r.error(nsNode, p.field("namespace"), "Forbidden: not allowed on this type");
        out.namespace_.clear();
    }
}

void readNodeSelectorTerm(Reader& r, uint32_t node, const Path& p, api::NodeSelectorTerm& out)
{
    auto readRequirements = [&](uint32_t list, const Path& lp,
                                std::vector<api::NodeSelectorRequirement>& reqs, bool fieldsOnly) {
        r.items(list, lp, [&](size_t, uint32_t item, const Path& ip) {
            api::NodeSelectorRequirement req;
            uint32_t opNode = item, keyNode = item;
            r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
                if (k == "key")
                    keyNode = v, r.getString(v, ip.field(k), req.key);
                else if (k == "operator")
                    opNode = v, r.getString(v, ip.field(k), req.op);
                else if (k == "values")
                    r.getStringList(v, ip.field(k), req.values);
                else
                    return false;
                return true;
            });
            if (req.key.empty())
                r.required(keyNode, ip.field("key"));
            else if (fieldsOnly && req.key != "metadata.name")
                r.unsupported(keyNode, ip.field("key"), req.key, { "metadata.name" });
            else if (!fieldsOnly)
                if (auto e = checkLabelKey(req.key); !e.empty())
                    r.invalid(keyNode, ip.field("key"), req.key, e);
            if (req.op == "In" || req.op == "NotIn") {
                if (req.values.empty())
                    r.error(opNode, ip.field("values"),
                        "Required value: must be specified when `operator` is 'In' or 'NotIn'");
            } else if (!fieldsOnly && (req.op == "Exists" || req.op == "DoesNotExist")) {
                if (!req.values.empty())
                    r.error(opNode, ip.field("values"),
                        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
            } else if (!fieldsOnly && (req.op == "Gt" || req.op == "Lt")) {
                if (req.values.size() != 1)
                    r.error(opNode, ip.field("values"),
                        "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'");
            } else if (req.op.empty()) {
                r.required(opNode, ip.field("operator"));
            } else if (fieldsOnly) {
                r.unsupported(opNode, ip.field("operator"), req.op, { "In", "NotIn" });
            } else {
                r.unsupported(opNode, ip.field("operator"), req.op,
                    { "DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn" });
            }
            reqs.push_back(std::move(req));
        });
    };
    r.fields(node, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "matchExpressions")
            readRequirements(v, p.field(k), out.matchExpressions, false);
        else if (k == "matchFields")
            readRequirements(v, p.field(k), out.matchFields, true);
        else
            return false;
        return true;
    });
}

void readNodeSelector(Reader& r, uint32_t node, const Path& p, api::NodeSelector& out)
{
    r.fields(node, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k != "nodeSelectorTerms")
            return false;
        r.items(v, p.field(k), [&](size_t, uint32_t item, const Path& ip) {
            api::NodeSelectorTerm term;
            readNodeSelectorTerm(r, item, ip, term);
            out.terms.push_back(std::move(term));
        });
        return true;
    });
}

} // namespace drasim::yamlio
