// SPDX-License-Identifier: Apache-2.0
// resource.k8s.io objects (v1, v1beta2, v1beta1, v1alpha3), converted to the v1 model and
// validated like the API server (dra-semantics.md §2, §2.5, §3.14).
#include <algorithm>
#include <set>

#include "core/yamlio/names.h"
#include "core/yamlio/read_device.h"

namespace drasim::yamlio {

namespace {

constexpr size_t kMaxDevicesPerSlice = 128;
constexpr size_t kMaxDevicesWithTaintsOrCounters = 64;
constexpr size_t kMaxCounterSets = 8;
constexpr size_t kMaxSelectors = 32;
constexpr size_t kMaxRequests = 32;
constexpr size_t kMaxSubRequests = 8;
constexpr size_t kMaxConstraints = 32;
constexpr size_t kMaxConfigs = 32;
constexpr size_t kMaxTolerations = 16;
constexpr size_t kMaxDerivedAttributes = 32; // DeviceDerivedAttributesMaxSize
constexpr size_t kMaxExpressionLength = 10 * 1024;
constexpr size_t kMaxParameterBytes = 10 * 1024; // OpaqueParametersMaxLength

std::string checkDnsSubdomainDefault(std::string_view s)
{
    return checkDnsSubdomain(s);
}

// ---------------------------------------------------------------- claims

void readSelectors(Reader& r, uint32_t n, const Path& p, std::vector<api::DeviceSelector>& out)
{
    r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::DeviceSelector s;
        bool haveCel = false;
        r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
            if (k != "cel")
                return false;
            haveCel = !r.isNull(v);
            const Path cp = ip.field(k);
            bool haveExpr = false;
            r.fields(v, cp, [&](std::string_view ck, uint32_t, uint32_t x) {
                if (ck != "expression")
                    return false;
                haveExpr = r.getString(x, cp.field(ck), s.expression);
                s.pos = r.contentPos(x);
                if (haveExpr && s.expression.empty())
                    haveExpr = false;
                if (s.expression.size() > kMaxExpressionLength)
                    r.error(x, cp.field(ck), "Too long: must have at most 10240 bytes");
                return true;
            });
            if (!haveExpr && haveCel)
                r.required(v, cp.field("expression"));
            return true;
        });
        if (!haveCel)
            r.required(item, ip.field("cel"));
        out.push_back(std::move(s));
    });
    if (out.size() > kMaxSelectors)
        r.tooMany(n, p, out.size(), kMaxSelectors);
}

void readOpaque(Reader& r, uint32_t n, const Path& p, api::OpaqueDeviceConfiguration& out)
{
    bool haveParameters = false;
    uint32_t driverNode = n;
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "driver")
            driverNode = v, r.getString(v, p.field(k), out.driver);
        else if (k == "parameters") {
            haveParameters = !r.isNull(v);
            out.parameters = r.toData(v);
        } else
            return false;
        return true;
    });
    checkDriver(r, driverNode, p.field("driver"), out.driver);
    if (!haveParameters)
        r.required(n, p.field("parameters"));
    else if (uint32_t v = findKey(r.doc(), n, "parameters");
             toJson(out.parameters, 0).size() > kMaxParameterBytes)
        r.error(v, p.field("parameters"), "Too long: must have at most 10240 bytes"); // as kubectl sends it
    else if (r.nodeKind(v) != YamlNode::Kind::Map)
        r.error(v, p.field("parameters"), "Invalid value: \"<value omitted>\": must be a valid JSON object");
}

// validateDeviceToleration: a key is optional (empty matches every key), an Equal value must be
// a label value, an Exists value must be empty; the effects are the taint effects, None included.
void readDeviceTolerations(Reader& r, uint32_t n, const Path& p, std::vector<api::DeviceToleration>& out)
{
    r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::DeviceToleration t;
        const TolerationNodes at = readTolerationFields(r, item, ip, t);
        if (t.op.empty())
            t.op = "Equal"; // defaulted by the API server
        if (!t.key.empty())
            if (auto e = checkLabelKey(t.key); !e.empty())
                r.invalid(at.key, ip.field("key"), t.key, e);
        if (t.op == "Exists") {
            if (!t.value.empty())
                r.invalid(at.value, ip.field("value"), t.value, "must be empty for operator `Exists`");
        } else if (t.op == "Equal") {
            if (auto e = checkLabelValue(t.value); !e.empty())
                r.invalid(at.value, ip.field("value"), t.value, e);
        } else {
            r.unsupported(at.op, ip.field("operator"), t.op, { "Equal", "Exists" });
        }
        if (!t.effect.empty() && t.effect != "None" && t.effect != "NoSchedule" && t.effect != "NoExecute")
            r.unsupported(at.effect, ip.field("effect"), t.effect, { "NoExecute", "NoSchedule", "None" });
        out.push_back(std::move(t));
    });
    if (out.size() > kMaxTolerations)
        r.tooMany(n, p, out.size(), kMaxTolerations);
}

// derivedAttributes (DRADerivedAttributes, 1.37 alpha): at most 32 (+k8s:maxItems), unique by
// name (validateSet), each a fully qualified name and a CEL expression of at most 10 KiB. The CEL
// checks need the compiler (session's manifest check, the cluster's validation); the check that
// a constraint names each one needs the constraints (checkDerivedReferences). With the gate off
// the API server drops the field (dropDisabledFields of the claim strategy).
void readDerivedAttributes(
    Reader& r, uint32_t n, const Path& p, std::vector<api::DeviceDerivedAttribute>& out)
{
    if (r.isNull(n))
        return;
    if (!r.gates().enabled("DRADerivedAttributes")) {
        r.warning(n, p,
            "dropped: feature gate DRADerivedAttributes is disabled, so the API server clears this field");
        return;
    }
    std::set<std::string> names;
    r.items(n, p, [&](size_t, uint32_t item, const Path& ip) {
        api::DeviceDerivedAttribute a;
        uint32_t nameNode = 0, exprNode = 0;
        r.fields(item, ip, [&](std::string_view k, uint32_t, uint32_t v) {
            if (k == "name")
                nameNode = v, r.getString(v, ip.field(k), a.name);
            else if (k == "expression") {
                exprNode = v;
                r.getString(v, ip.field(k), a.expression);
                a.pos = r.contentPos(v);
            } else
                return false;
            return true;
        });
        if (a.name.empty())
            r.required(nameNode ? nameNode : item, ip.field("name"));
        else
            reportNameIssues(r, nameNode, ip.field("name"), qualifiedNameIssues(a.name, true));
        if (a.expression.empty())
            r.required(exprNode ? exprNode : item, ip.field("expression"));
        else if (a.expression.size() > kMaxExpressionLength)
            r.error(exprNode, ip.field("expression"), "Too long: must have at most 10240 bytes");
        if (!names.insert(a.name).second)
            r.duplicate(item, ip, a.name);
        out.push_back(std::move(a));
    });
    if (out.size() > kMaxDerivedAttributes)
        r.tooMany(n, p, out.size(), kMaxDerivedAttributes);
}

/// Where the fields of one ExactDeviceRequest / DeviceSubRequest were written, for the checks
/// after reading (0 when absent).
struct RequestSpecNodes
{
    uint32_t deviceClass = 0, mode = 0, count = 0;
};

// Fields shared by ExactDeviceRequest, DeviceSubRequest and the v1beta1 flat request.
bool readRequestSpecField(Reader& r, std::string_view k, uint32_t v, const Path& p, api::DeviceRequestSpec& s,
    bool allowAdminAccess, RequestSpecNodes& at)
{
    const Path fp = p.field(k);
    if (k == "deviceClassName") {
        at.deviceClass = v;
        r.getString(v, fp, s.deviceClassName);
    } else if (k == "selectors") {
        readSelectors(r, v, fp, s.selectors);
    } else if (k == "allocationMode") {
        std::string mode;
        if (r.getString(v, fp, mode) && !mode.empty()) {
            at.mode = v;
            s.allocationMode = mode;
        }
    } else if (k == "count") {
        at.count = v;
        if (!r.getInt(v, fp, s.count))
            s.count = 0;
    } else if (k == "adminAccess" && allowAdminAccess) {
        bool b = false;
        if (r.getBool(v, fp, b))
            s.adminAccess = b;
        s.adminAccessPos = r.pos(v);
    } else if (k == "tolerations") {
        // resourceclaimspec's dropDisabledDRADeviceTaintsFields.
        if (!clearedByGate(r, v, fp, "DRADeviceTaints"))
            readDeviceTolerations(r, v, fp, s.tolerations);
    } else if (k == "derivedAttributes") {
        readDerivedAttributes(r, v, fp, s.derivedAttributes);
    } else if (k == "capacity") {
        // resourceclaimspec's dropDisabledDRAResourceClaimConsumableCapacityFields.
        if (clearedByGate(r, v, fp, "DRAConsumableCapacity"))
            return true;
        api::CapacityRequirements cap;
        r.fields(v, fp, [&](std::string_view ck, uint32_t, uint32_t x) {
            if (ck != "requests")
                return false;
            const Path rp = fp.field(ck);
            r.fields(x, rp, [&](std::string_view name, uint32_t keyNode, uint32_t qv) {
                reportNameIssues(r, keyNode, rp.key(name), qualifiedNameIssues(name, false));
                Quantity q;
                if (r.getQuantity(qv, rp.key(name), q))
                    cap.requests[std::string(name)] = q;
                return true;
            });
            return true;
        });
        s.capacity = std::move(cap);
    } else {
        return false;
    }
    return true;
}

/// Defaulting (SetDefaults_ExactDeviceRequest / SetDefaults_DeviceSubRequest) and
/// validateDeviceAllocationMode. `count` is an int64 without a pointer in every version, so a
/// written 0 is the same as no count: ExactCount makes it 1 and All accepts it. v1beta1 defaults a
/// request only when it names a class (`defaulting` false otherwise): its mode then stays empty.
void checkRequestSpec(Reader& r, uint32_t n, const Path& p, api::DeviceRequestSpec& s,
    const RequestSpecNodes& at, bool defaulting = true)
{
    checkName(r, at.deviceClass ? at.deviceClass : n, p.field("deviceClassName"), s.deviceClassName,
        checkDnsSubdomainDefault);
    if (!at.mode && !defaulting) {
        r.unsupported(n, p.field("allocationMode"), "", { "All", "ExactCount" });
        return;
    }
    const uint32_t countNode = at.count ? at.count : n;
    if (s.allocationMode == "ExactCount") {
        if (s.count == 0)
            s.count = 1;
        else if (s.count < 0)
            r.error(countNode, p.field("count"),
                "Invalid value: " + std::to_string(s.count) + ": must be greater than zero");
    } else if (s.allocationMode == "All") {
        if (s.count != 0)
            r.error(countNode, p.field("count"),
                "Invalid value: " + std::to_string(s.count)
                    + ": must not be specified when allocationMode is 'All'");
        s.count = 0;
    } else {
        r.unsupported(at.mode, p.field("allocationMode"), s.allocationMode, { "All", "ExactCount" });
    }
}

void readSubRequest(Reader& r, uint32_t n, const Path& p, api::DeviceSubRequest& out)
{
    uint32_t nameNode = n;
    RequestSpecNodes at;
    out.spec.count = 0;
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        if (k == "name") {
            nameNode = v;
            r.getString(v, p.field(k), out.name);
            return true;
        }
        return readRequestSpecField(r, k, v, p, out.spec, false, at);
    });
    checkName(r, nameNode, p.field("name"), out.name, checkDnsLabel);
    checkRequestSpec(r, n, p, out.spec, at);
}

/// hasAnyMainRequestFieldsSet of the v1beta1 conversion: a flat request with any of these becomes
/// an `exactly` request (possibly an invalid one, which validation then reports).
bool anyFlatRequestField(
    Reader& r, uint32_t n, const api::DeviceRequestSpec& flat, const RequestSpecNodes& at)
{
    if (!flat.deviceClassName.empty() || at.mode || (at.count && flat.count != 0))
        return true;
    for (const char* k : { "selectors", "adminAccess", "tolerations", "capacity", "derivedAttributes" })
        if (uint32_t v = findKey(r.doc(), n, k); v && !r.isNull(v))
            return true;
    return false;
}

void readFirstAvailable(Reader& r, uint32_t n, const Path& fp, api::DeviceRequest& out)
{
    std::vector<uint32_t> items;
    r.items(n, fp, [&](size_t, uint32_t item, const Path& ip) {
        api::DeviceSubRequest sub;
        readSubRequest(r, item, ip, sub);
        out.firstAvailable.push_back(std::move(sub));
        items.push_back(item);
    });
    if (out.firstAvailable.size() > kMaxSubRequests) {
        r.tooMany(n, fp, out.firstAvailable.size(), kMaxSubRequests);
        return;
    }
    std::set<std::string> names;
    for (size_t i = 0; i < out.firstAvailable.size(); ++i)
        if (!names.insert(out.firstAvailable[i].name).second)
            r.duplicate(items[i], fp.at(i), out.firstAvailable[i].name);
}

void readRequest(Reader& r, uint32_t n, const Path& p, ResourceVersion ver, api::DeviceRequest& out)
{
    uint32_t nameNode = n;
    // v1beta1/v1alpha3 put ExactDeviceRequest fields directly on the request; the API server
    // converts them to `exactly` and reports its findings under that name.
    api::DeviceRequestSpec flat;
    flat.count = 0;
    RequestSpecNodes flatAt, exactAt;
    uint32_t exactNode = n;
    const Path exactPath = p.field("exactly");
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "name") {
            nameNode = v;
            r.getString(v, fp, out.name);
        } else if (k == "firstAvailable" && ver != ResourceVersion::V1alpha3) {
            readFirstAvailable(r, v, fp, out);
        } else if (k == "exactly" && !legacyDevice(ver)) {
            if (r.isNull(v))
                return true;
            exactNode = v;
            out.exactly.emplace().count = 0;
            r.fields(v, fp, [&](std::string_view ek, uint32_t, uint32_t ev) {
                return readRequestSpecField(r, ek, ev, fp, *out.exactly, true, exactAt);
            });
        } else if (legacyDevice(ver)) {
            return readRequestSpecField(r, k, v, exactPath, flat, true, flatAt);
        } else {
            return false;
        }
        return true;
    });
    checkName(r, nameNode, p.field("name"), out.name, checkDnsLabel);
    if (legacyDevice(ver) && anyFlatRequestField(r, n, flat, flatAt)) {
        out.exactly = std::move(flat);
        exactAt = flatAt;
    }
    // validateDeviceRequest looks into `exactly` only when it is the one field set; the
    // subrequests' own checks ran while reading them.
    if (out.exactly && out.firstAvailable.empty())
        checkRequestSpec(r, exactNode, exactPath, *out.exactly, exactAt,
            !legacyDevice(ver) || !out.exactly->deviceClassName.empty());
    if (out.exactly && !out.firstAvailable.empty())
        r.error(findKey(r.doc(), n, "firstAvailable"), p,
            "Invalid value: \"null\": exactly one of `exactly` or `firstAvailable` is required, but multiple "
            "fields are set");
    else if (!out.exactly && out.firstAvailable.empty())
        r.error(n, p, "Required value: exactly one of `exactly` or `firstAvailable` is required");
}

// validateRequestNameRef for each entry of a constraint's or config's `requests` (a set: no
// duplicates, at most 32): "req" or "req/sub", each part a DNS label, naming a (sub)request.
void checkRequestRefs(Reader& r, uint32_t n, const Path& p, const std::vector<std::string>& refs,
    const std::vector<api::DeviceRequest>& requests)
{
    if (refs.size() > kMaxRequests) {
        r.tooMany(n, p, refs.size(), kMaxRequests);
        return;
    }
    const std::string notARequest = "must be the name of a request in the claim or the name of a request and "
                                    "a subrequest separated by '/'";
    std::set<std::string> seen;
    for (size_t i = 0; i < refs.size(); ++i) {
        const std::string& ref = refs[i];
        const uint32_t at = r.listItem(n, i);
        const size_t slash = ref.find('/');
        if (slash != std::string::npos && ref.find('/', slash + 1) != std::string::npos) {
            r.invalid(at, p.at(i), ref, notARequest);
            continue;
        }
        const std::string main = ref.substr(0, slash);
        const std::string sub = slash == std::string::npos ? std::string() : ref.substr(slash + 1);
        for (const std::string* part : { &main, &sub })
            if (part == &main || slash != std::string::npos)
                if (auto e = checkDnsLabel(*part); !e.empty())
                    r.invalid(at, p.at(i), *part, e);
        auto it
            = std::find_if(requests.begin(), requests.end(), [&](const auto& q) { return q.name == main; });
        bool ok = it != requests.end();
        if (ok && slash != std::string::npos)
            ok = std::any_of(it->firstAvailable.begin(), it->firstAvailable.end(),
                [&](const auto& s) { return s.name == sub; });
        if (!ok)
            r.invalid(at, p.at(i), ref, notARequest);
        if (!seen.insert(ref).second)
            r.duplicate(at, p.at(i), ref);
    }
}

/// One constraint; returns the node of its `requests` (the item when absent). Both
/// matchAttribute and distinctAttribute set is accepted like validateDeviceConstraint does (the
/// allocator then uses matchAttribute); neither is an error, worded by DRAConsumableCapacity.
/// distinctAttribute is kept with that gate off: resourceclaimspec's
/// dropDisabledDRAResourceClaimConsumableCapacityFields clears it on a copy of each constraint (a
/// range loop over values), so the API server stores it; the allocator then refuses it.
uint32_t readConstraint(Reader& r, uint32_t item, const Path& ip, api::DeviceConstraint& c)
{
    uint32_t refsNode = item;
    r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
        std::string s;
        if (ck == "requests")
            refsNode = cv, r.getStringList(cv, ip.field(ck), c.requests);
        else if (ck == "matchAttribute" || ck == "distinctAttribute") {
            if (r.getString(cv, ip.field(ck), s)) {
                reportNameIssues(r, cv, ip.field(ck), qualifiedNameIssues(s, true));
                (ck == "matchAttribute" ? c.matchAttribute : c.distinctAttribute) = s;
            }
        } else
            return false;
        return true;
    });
    if (!c.matchAttribute && !c.distinctAttribute && !r.gates().enabled("DRAConsumableCapacity"))
        r.required(item, ip.field("matchAttribute"));
    else if (!c.matchAttribute && !c.distinctAttribute)
        r.error(item, ip,
            "Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but "
            "multiple fields are set");
    c.requests.shrink_to_fit();
    return refsNode;
}

/// One claim config entry; returns the node of its `requests` (the item when absent).
uint32_t readClaimConfig(Reader& r, uint32_t item, const Path& ip, api::DeviceClaimConfiguration& c)
{
    uint32_t refsNode = item;
    bool haveOpaque = false;
    r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
        if (ck == "requests")
            refsNode = cv, r.getStringList(cv, ip.field(ck), c.requests);
        else if (ck == "opaque") {
            haveOpaque = !r.isNull(cv);
            readOpaque(r, cv, ip.field(ck), c.opaque);
        } else
            return false;
        return true;
    });
    if (!haveOpaque)
        r.required(item, ip.field("opaque"));
    return refsNode;
}

// isAttributeUsedByConstraint of the API server: a matchAttribute or distinctAttribute constraint
// for all requests, for this request or (for a subrequest "req/sub") for its parent "req".
bool usedByConstraint(const std::string& name, const std::string& request, const api::ResourceClaimSpec& spec)
{
    const std::string parent = request.substr(0, request.find('/'));
    for (const auto& c : spec.constraints) {
        const auto& attribute = c.matchAttribute ? c.matchAttribute : c.distinctAttribute;
        if (!attribute || *attribute != name)
            continue;
        if (c.requests.empty() || std::find(c.requests.begin(), c.requests.end(), request) != c.requests.end()
            || std::find(c.requests.begin(), c.requests.end(), parent) != c.requests.end())
            return true;
    }
    return false;
}

void checkDerivedList(Reader& r, uint32_t specNode, const Path& sp, const api::DeviceRequestSpec& s,
    const std::string& request, const api::ResourceClaimSpec& claim)
{
    const uint32_t list = specNode ? findKey(r.doc(), specNode, "derivedAttributes") : 0;
    const Path lp = sp.field("derivedAttributes");
    for (size_t i = 0; i < s.derivedAttributes.size(); ++i) {
        const auto& a = s.derivedAttributes[i];
        if (a.name.empty() || usedByConstraint(a.name, request, claim))
            continue;
        const uint32_t item = list ? r.listItem(list, i) : specNode;
        const uint32_t nameNode = item ? findKey(r.doc(), item, "name") : 0;
        r.invalid(nameNode ? nameNode : item, lp.at(i).field("name"), a.name,
            "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting "
            "this "
            "request");
    }
}

/// Every derived attribute must be named by a constraint covering its (sub)request
/// (validateDeviceDerivedAttribute); `items` are the request nodes in order.
void checkDerivedReferences(Reader& r, const std::vector<uint32_t>& items, const Path& rp,
    ResourceVersion ver, const api::ResourceClaimSpec& spec)
{
    for (size_t i = 0; i < spec.requests.size() && i < items.size(); ++i) {
        const auto& q = spec.requests[i];
        const Path ip = rp.at(i);
        if (q.exactly) {
            const uint32_t at = legacyDevice(ver) ? items[i] : findKey(r.doc(), items[i], "exactly");
            checkDerivedList(r, at, ip.field("exactly"), *q.exactly, q.name, spec);
        }
        const uint32_t fa = findKey(r.doc(), items[i], "firstAvailable");
        for (size_t j = 0; j < q.firstAvailable.size(); ++j)
            checkDerivedList(r, fa ? r.listItem(fa, j) : 0, ip.field("firstAvailable").at(j),
                q.firstAvailable[j].spec, q.name + "/" + q.firstAvailable[j].name, spec);
    }
}

void readDeviceClaim(Reader& r, uint32_t v, const Path& dp, ResourceVersion ver, api::ResourceClaimSpec& out)
{
    std::vector<uint32_t> requestItems;
    uint32_t reqNode = v, consNode = v, cfgNode = v;
    std::vector<uint32_t> constraintRefs, configRefs;
    r.fields(v, dp, [&](std::string_view dk, uint32_t, uint32_t dv) {
        const Path fp = dp.field(dk);
        if (dk == "requests") {
            reqNode = dv;
            std::set<std::string> names;
            r.items(dv, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::DeviceRequest req;
                requestItems.push_back(item);
                readRequest(r, item, ip, ver, req);
                if (!names.insert(req.name).second)
                    r.duplicate(item, ip, req.name);
                out.requests.push_back(std::move(req));
            });
        } else if (dk == "constraints") {
            consNode = dv;
            r.items(dv, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::DeviceConstraint c;
                constraintRefs.push_back(readConstraint(r, item, ip, c));
                out.constraints.push_back(std::move(c));
            });
        } else if (dk == "config") {
            cfgNode = dv;
            r.items(dv, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::DeviceClaimConfiguration c;
                configRefs.push_back(readClaimConfig(r, item, ip, c));
                out.config.push_back(std::move(c));
            });
        } else {
            return false;
        }
        return true;
    });
    if (out.requests.size() > kMaxRequests)
        r.tooMany(reqNode, dp.field("requests"), out.requests.size(), kMaxRequests);
    if (out.constraints.size() > kMaxConstraints)
        r.tooMany(consNode, dp.field("constraints"), out.constraints.size(), kMaxConstraints);
    if (out.config.size() > kMaxConfigs)
        r.tooMany(cfgNode, dp.field("config"), out.config.size(), kMaxConfigs);
    const Path constraintsPath = dp.field("constraints");
    for (size_t i = 0; i < out.constraints.size(); ++i) {
        const Path ip = constraintsPath.at(i);
        checkRequestRefs(
            r, constraintRefs[i], ip.field("requests"), out.constraints[i].requests, out.requests);
    }
    const Path configPath = dp.field("config");
    for (size_t i = 0; i < out.config.size(); ++i) {
        const Path ip = configPath.at(i);
        checkRequestRefs(r, configRefs[i], ip.field("requests"), out.config[i].requests, out.requests);
    }
    checkDerivedReferences(r, requestItems, dp.field("requests"), ver, out);
}

void readClaimSpec(Reader& r, uint32_t n, const Path& p, ResourceVersion ver, api::ResourceClaimSpec& out)
{
    r.fields(n, p, [&](std::string_view k, uint32_t keyNode, uint32_t v) {
        if (k == "resourceClassName" || k == "parametersRef" || k == "allocationMode") {
            r.error(keyNode, p.field(k),
                "unknown field \"" + std::string(k)
                    + "\": this is classic DRA (removed in Kubernetes 1.31); use spec.devices.requests with "
                      "a deviceClassName instead");
            return true;
        }
        if (k == "controller")
            return true; // v1alpha3 (1.31) still had it; ignored
        if (k != "devices")
            return false;
        readDeviceClaim(r, v, p.field(k), ver, out);
        return true;
    });
}

/// The feature gate of an allocation result field the API server clears from a status it stores
/// while that gate is off (resourceclaim's dropDeviceBindingConditionsFields and
/// dropDisabledDRAResourceClaimConsumableCapacityStatusFields); null for the others.
const char* gateOfResultField(std::string_view k)
{
    if (k == "bindingConditions" || k == "bindingFailureConditions")
        return "DRADeviceBindingConditions";
    if (k == "shareID" || k == "consumedCapacity")
        return "DRAConsumableCapacity";
    return nullptr;
}

void readAllocation(Reader& r, uint32_t n, const Path& p, api::AllocationResult& out)
{
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "nodeSelector") {
            api::NodeSelector sel;
            readNodeSelector(r, v, fp, sel);
            if (!r.isNull(v))
                out.nodeSelector = std::move(sel);
        } else if (k == "allocationTimestamp") {
            r.getString(v, fp, out.allocationTimestamp);
        } else if (k == "controller") {
            return true;
        } else if (k == "devices") {
            r.fields(v, fp, [&](std::string_view dk, uint32_t, uint32_t dv) {
                const Path dp = fp.field(dk);
                if (dk == "results") {
                    r.items(dv, dp, [&](size_t, uint32_t item, const Path& ip) {
                        api::DeviceRequestAllocationResult res;
                        r.fields(item, ip, [&](std::string_view rk, uint32_t, uint32_t rv) {
                            const Path rp = ip.field(rk);
                            std::string s;
                            bool b = false;
                            if (rk == "request")
                                r.getString(rv, rp, res.request);
                            else if (rk == "driver")
                                r.getString(rv, rp, res.driver);
                            else if (rk == "pool")
                                r.getString(rv, rp, res.pool);
                            else if (rk == "device")
                                r.getString(rv, rp, res.device);
                            else if (rk == "adminAccess") {
                                if (r.getBool(rv, rp, b))
                                    res.adminAccess = b;
                            } else if (rk == "tolerations")
                                readDeviceTolerations(r, rv, rp, res.tolerations);
                            else if (const char* gate = gateOfResultField(rk);
                                     gate && clearedByGate(r, rv, rp, gate))
                                return true;
                            else if (rk == "bindingConditions")
                                r.getStringList(rv, rp, res.bindingConditions);
                            else if (rk == "bindingFailureConditions")
                                r.getStringList(rv, rp, res.bindingFailureConditions);
                            else if (rk == "shareID") {
                                if (r.getString(rv, rp, s))
                                    res.shareID = s;
                            } else if (rk == "consumedCapacity")
                                r.getQuantityMap(rv, rp, res.consumedCapacity);
                            else if (rk == "skipNodeOperations")
                                r.getStringList(rv, rp, res.skipNodeOperations);
                            else
                                return false;
                            return true;
                        });
                        for (const char* f : { "request", "driver", "pool", "device" }) {
                            const std::string& val = std::string_view(f) == "request" ? res.request
                                : std::string_view(f) == "driver"                     ? res.driver
                                : std::string_view(f) == "pool"                       ? res.pool
                                                                                      : res.device;
                            if (val.empty())
                                r.required(item, ip.field(f));
                        }
                        out.results.push_back(std::move(res));
                    });
                } else if (dk == "config") {
                    r.items(dv, dp, [&](size_t, uint32_t item, const Path& ip) {
                        api::DeviceAllocationConfiguration c;
                        r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
                            if (ck == "source") {
                                if (r.getString(cv, ip.field(ck), c.source) && c.source != "FromClass"
                                    && c.source != "FromClaim")
                                    r.unsupported(cv, ip.field(ck), c.source, { "FromClaim", "FromClass" });
                            } else if (ck == "requests")
                                r.getStringList(cv, ip.field(ck), c.requests);
                            else if (ck == "opaque")
                                readOpaque(r, cv, ip.field(ck), c.opaque);
                            else
                                return false;
                            return true;
                        });
                        out.config.push_back(std::move(c));
                    });
                } else {
                    return false;
                }
                return true;
            });
        } else {
            return false;
        }
        return true;
    });
}

/// Status the simulator does not read (it is tolerated wholesale, see README).
void ignoreStatus(uint32_t, const Path&) { }

void readPool(Reader& r, uint32_t n, const Path& fp, api::ResourcePool& out)
{
    bool haveCount = false;
    uint32_t nameNode = n;
    r.fields(n, fp, [&](std::string_view pk, uint32_t, uint32_t pv) {
        if (pk == "name")
            nameNode = pv, r.getString(pv, fp.field(pk), out.name);
        else if (pk == "generation") {
            if (r.getInt(pv, fp.field(pk), out.generation) && out.generation < 0)
                r.error(pv, fp.field(pk),
                    "Invalid value: " + std::to_string(out.generation)
                        + ": must be greater than or equal to zero");
        } else if (pk == "resourceSliceCount") {
            haveCount = r.getInt(pv, fp.field(pk), out.resourceSliceCount);
            if (haveCount && out.resourceSliceCount <= 0)
                r.error(pv, fp.field(pk),
                    "Invalid value: " + std::to_string(out.resourceSliceCount)
                        + ": must be greater than zero");
        } else
            return false;
        return true;
    });
    if (out.name.empty())
        r.required(nameNode, fp.field("name"));
    else
        reportNameIssues(r, nameNode, fp.field("name"), poolNameIssues(out.name));
    if (!haveCount && r.nodeKind(n) == YamlNode::Kind::Map)
        r.error(n, fp.field("resourceSliceCount"), "Invalid value: 0: must be greater than zero");
}

/// What validateResourcePool says about a pool that is not there (a zero ResourcePool).
void missingPool(Reader& r, uint32_t n, const Path& sp)
{
    const Path pp = sp.field("pool");
    r.required(n, pp.field("name"));
    r.error(n, pp.field("resourceSliceCount"), "Invalid value: 0: must be greater than zero");
}

// validateSet of sharedCounters: at most 8 (short-circuits), each named and with counters, names
// unique.
void readSharedCounters(Reader& r, uint32_t n, const Path& fp, std::vector<api::CounterSet>& out)
{
    if (r.listSize(n) > kMaxCounterSets) {
        r.tooMany(n, fp, r.listSize(n), kMaxCounterSets);
        return;
    }
    std::set<std::string> names;
    r.items(n, fp, [&](size_t, uint32_t item, const Path& ip) {
        api::CounterSet cs;
        uint32_t nameNode = item;
        bool haveCounters = false;
        r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
            if (ck == "name")
                nameNode = cv, r.getString(cv, ip.field(ck), cs.name);
            else if (ck == "counters") {
                haveCounters = !r.isNull(cv);
                if (haveCounters)
                    readCounterMap(r, cv, ip.field(ck), cs.counters);
            } else
                return false;
            return true;
        });
        checkName(r, nameNode, ip.field("name"), cs.name, checkDnsLabel);
        if (!haveCounters)
            r.required(item, ip.field("counters"));
        if (!names.insert(cs.name).second)
            r.duplicate(item, ip, cs.name);
        out.push_back(std::move(cs));
    });
}

/// Where the fields of a slice spec were written, for the checks across them.
struct SliceSpecNodes
{
    uint32_t driver = 0, pool = 0, devices = 0, counters = 0;
    /// The node-selection fields that count as set (a non-empty nodeName, a nodeSelector, a true
    /// allNodes or perDeviceNodeSelection), with their names as the API server lists them.
    std::vector<std::pair<std::string, uint32_t>> nodeFields;
    std::vector<uint32_t> deviceItems; ///< read after all fields: perDeviceNodeSelection may follow
};

/// "{`a`, `b`}": how validateResourceSliceSpec and validateDevice name the node-selection fields
/// that were set together.
std::string fieldSet(const std::vector<std::pair<std::string, uint32_t>>& fields)
{
    std::string out = "{";
    for (size_t i = 0; i < fields.size(); ++i)
        out += (i ? ", `" : "`") + fields[i].first + "`";
    return out + "}";
}

/// One field of the slice's node selection (nodeName, nodeSelector, allNodes,
/// perDeviceNodeSelection); false for any other key. An empty nodeName or a false boolean is an
/// error of its own and does not count as set.
bool readNodeSelection(
    Reader& r, std::string_view sk, uint32_t sv, const Path& fp, api::ResourceSlice& out, SliceSpecNodes& at)
{
    if (sk == "nodeName") {
        std::string s;
        if (r.getString(sv, fp, s)) {
            out.nodeName = s;
            if (s.empty())
                r.invalid(sv, fp, s, "must be either unset or set to a non-empty string");
            else {
                at.nodeFields.emplace_back(sk, sv);
                if (auto e = checkDnsSubdomain(s); !e.empty())
                    r.invalid(sv, fp, s, e);
            }
        }
    } else if (sk == "nodeSelector") {
        api::NodeSelector sel;
        readNodeSelector(r, sv, fp, sel);
        if (!r.isNull(sv)) {
            at.nodeFields.emplace_back(sk, sv);
            if (sel.terms.size() != 1)
                r.error(sv, fp.field("nodeSelectorTerms"),
                    "Invalid value: " + std::to_string(sel.terms.size())
                        + ": must have exactly one node selector term");
            out.nodeSelector = std::move(sel);
        }
    } else if (sk == "perDeviceNodeSelection" && clearedByGate(r, sv, fp, api::gateOfSliceField(sk))) {
        // Cleared before validation: a slice that had only this field then has no node selection.
    } else if (sk == "allNodes" || sk == "perDeviceNodeSelection") {
        bool b = false;
        if (r.getBool(sv, fp, b)) {
            (sk == "allNodes" ? out.allNodes : out.perDeviceNodeSelection) = b;
            if (b)
                at.nodeFields.emplace_back(sk, sv);
            else
                r.error(sv, fp, "Invalid value: false: must be either unset or set to true");
        }
    } else {
        return false;
    }
    return true;
}

/// haveDeviceTaints || haveConsumesCounters of validateResourceSliceSpec, looked up before the
/// devices are read: the size limit they select is checked first and short-circuits the rest.
/// Fields a gate that is off clears do not count: validation sees the slice without them.
bool anyDeviceWithTaintsOrCounters(Reader& r, const std::vector<uint32_t>& items, ResourceVersion ver)
{
    for (uint32_t item : items) {
        uint32_t fieldsNode = legacyDevice(ver) ? findKey(r.doc(), item, "basic") : item;
        if (!fieldsNode || r.nodeKind(fieldsNode) != YamlNode::Kind::Map)
            continue;
        for (const char* k : { "taints", "consumesCounters" })
            if (uint32_t v = findKey(r.doc(), fieldsNode, k);
                v && r.listSize(v) > 0 && r.gates().enabled(api::gateOfDeviceField(k)))
                return true;
    }
    return false;
}

void readSliceDevices(
    Reader& r, const SliceSpecNodes& at, const Path& sp, ResourceVersion ver, api::ResourceSlice& out)
{
    const bool perDevice = out.perDeviceNodeSelection.value_or(false);
    const Path dp = sp.field("devices");
    const size_t maxDevices = anyDeviceWithTaintsOrCounters(r, at.deviceItems, ver)
        ? kMaxDevicesWithTaintsOrCounters
        : kMaxDevicesPerSlice;
    if (at.deviceItems.size() > maxDevices) {
        r.tooMany(at.devices, dp, at.deviceItems.size(), maxDevices);
        return;
    }
    std::set<std::string> deviceNames;
    out.devices.reserve(at.deviceItems.size());
    for (size_t i = 0; i < at.deviceItems.size(); ++i) {
        const Path ip = dp.at(i);
        api::Device d;
        readDevice(r, at.deviceItems[i], ip, ver, perDevice, d);
        if (!deviceNames.insert(d.name).second)
            r.duplicate(at.deviceItems[i], ip, d.name);
        out.devices.push_back(std::move(d));
    }
}

// spec.skipNodeOperations (DRAOptionalNodeOperations, 1.37 alpha): a set of NodePrepareResources,
// NodeUnprepareResources and "*"; skipping the preparation alone would leave the kubelet
// unpreparing what it never prepared, so NodePrepareResources needs NodeUnprepareResources or "*"
// (KEP-5945). With the gate off the API server clears the field.
void readSkipNodeOperations(Reader& r, uint32_t v, const Path& p, std::vector<std::string>& out)
{
    if (r.isNull(v) || clearedByGate(r, v, p, api::gateOfSliceField("skipNodeOperations")))
        return;
    const std::vector<std::string> known { "*", "NodePrepareResources", "NodeUnprepareResources" };
    r.items(v, p, [&](size_t, uint32_t item, const Path& ip) {
        std::string op;
        r.getString(item, ip, op);
        if (std::find(known.begin(), known.end(), op) == known.end())
            r.unsupported(item, ip, op, { "*", "NodePrepareResources", "NodeUnprepareResources" });
        else if (std::find(out.begin(), out.end(), op) != out.end())
            r.duplicate(item, ip, op);
        out.push_back(std::move(op));
    });
    const auto has = [&](std::string_view op) { return std::find(out.begin(), out.end(), op) != out.end(); };
    if (has("NodePrepareResources") && !has("NodeUnprepareResources") && !has("*"))
        r.error(v, p,
            "Invalid value: NodePrepareResources may only be skipped together with NodeUnprepareResources");
}

void checkSliceSpec(
    Reader& r, uint32_t v, const SliceSpecNodes& at, const Path& sp, const api::ResourceSlice& out)
{
    checkDriver(r, at.driver, sp.field("driver"), out.driver);
    if (!at.pool)
        missingPool(r, v, sp);
    if (at.nodeFields.empty())
        r.error(v, sp,
            "Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
            "`perDeviceNodeSelection` is required");
    else if (at.nodeFields.size() > 1)
        r.error(at.nodeFields[1].second, sp,
            "Invalid value: \"" + fieldSet(at.nodeFields)
                + "\": exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
                  "required, but multiple fields are set");
    // Both lists written, even empty, are both set (the API server compares them with nil).
    if (at.devices && at.counters && !r.isNull(at.devices) && !r.isNull(at.counters))
        r.error(at.counters, sp, "Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed");
}

void readSliceSpec(Reader& r, uint32_t v, const Path& sp, ResourceVersion ver, api::ResourceSlice& out)
{
    SliceSpecNodes at;
    at.driver = v;
    r.fields(v, sp, [&](std::string_view sk, uint32_t, uint32_t sv) {
        const Path fp = sp.field(sk);
        if (sk == "driver") {
            at.driver = sv;
            r.getString(sv, fp, out.driver);
        } else if (sk == "pool") {
            at.pool = sv;
            readPool(r, sv, fp, out.pool);
        } else if (readNodeSelection(r, sk, sv, fp, out, at)) {
        } else if (sk == "devices") {
            at.devices = sv;
            r.items(sv, fp, [&](size_t, uint32_t item, const Path&) { at.deviceItems.push_back(item); });
        } else if (sk == "sharedCounters") {
            if (clearedByGate(r, sv, fp, api::gateOfSliceField(sk)))
                return true;
            at.counters = sv;
            readSharedCounters(r, sv, fp, out.sharedCounters);
        } else if (sk == "skipNodeOperations") {
            readSkipNodeOperations(r, sv, fp, out.skipNodeOperations);
        } else {
            return false;
        }
        return true;
    });
    readSliceDevices(r, at, sp, ver, out);
    checkSliceSpec(r, v, at, sp, out);
}

void readDeviceClassSpec(Reader& r, uint32_t v, const Path& sp, api::DeviceClass& out)
{
    r.fields(v, sp, [&](std::string_view sk, uint32_t, uint32_t sv) {
        const Path fp = sp.field(sk);
        if (sk == "selectors")
            readSelectors(r, sv, fp, out.selectors);
        else if (sk == "config") {
            r.items(sv, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::OpaqueDeviceConfiguration c;
                bool haveOpaque = false;
                r.fields(item, ip, [&](std::string_view ck, uint32_t, uint32_t cv) {
                    if (ck != "opaque")
                        return false;
                    haveOpaque = !r.isNull(cv);
                    readOpaque(r, cv, ip.field(ck), c);
                    return true;
                });
                if (!haveOpaque)
                    r.required(item, ip.field("opaque"));
                out.config.push_back(std::move(c));
            });
            if (out.config.size() > kMaxConfigs)
                r.tooMany(sv, fp, out.config.size(), kMaxConfigs);
        } else if (sk == "extendedResourceName") {
            std::string s;
            if (r.getString(sv, fp, s)) {
                if (!isExtendedResourceName(s))
                    r.invalid(sv, fp, s, "must be a valid extended resource name");
                out.extendedResourceName = s;
            }
        } else
            return false;
        return true;
    });
}

void readClaimStatus(Reader& r, uint32_t v, const Path& sp, api::ResourceClaim& out)
{
    r.fields(v, sp, [&](std::string_view sk, uint32_t, uint32_t sv) {
        const Path fp = sp.field(sk);
        if (sk == "allocation") {
            if (r.isNull(sv))
                return true;
            api::AllocationResult a;
            readAllocation(r, sv, fp, a);
            out.allocation = std::move(a);
        } else if (sk == "reservedFor") {
            r.items(sv, fp, [&](size_t, uint32_t item, const Path& ip) {
                api::ResourceClaimConsumerReference ref;
                r.fields(item, ip, [&](std::string_view rk, uint32_t, uint32_t rv) {
                    if (rk == "apiGroup")
                        r.getString(rv, ip.field(rk), ref.apiGroup);
                    else if (rk == "resource")
                        r.getString(rv, ip.field(rk), ref.resource);
                    else if (rk == "name")
                        r.getString(rv, ip.field(rk), ref.name);
                    else if (rk == "uid")
                        r.getString(rv, ip.field(rk), ref.uid);
                    else
                        return false;
                    return true;
                });
                out.reservedFor.push_back(std::move(ref));
            });
            if (out.reservedFor.size() > 256)
                r.tooMany(sv, fp, out.reservedFor.size(), 256);
        } else if (sk != "devices" && sk != "deallocationRequested" && sk != "driverName") {
            return false;
        }
        return true;
    });
}

/// spec of a ResourceClaimTemplate: the claims' metadata and spec.
void readTemplateSpec(
    Reader& r, uint32_t v, const Path& sp, ResourceVersion ver, api::ResourceClaimTemplate& out)
{
    r.fields(v, sp, [&](std::string_view sk, uint32_t, uint32_t sv) {
        const Path fp = sp.field(sk);
        if (sk == "metadata") {
            r.fields(sv, fp, [&](std::string_view mk, uint32_t, uint32_t mv) {
                if (mk == "labels")
                    r.getStringMap(mv, fp.field(mk), out.claimMeta.labels);
                else if (mk == "annotations")
                    r.getStringMap(mv, fp.field(mk), out.claimMeta.annotations);
                else if (mk == "name" || mk == "generateName" || mk == "namespace" || mk == "finalizers"
                    || mk == "creationTimestamp")
                    return true;
                else
                    return false;
                return true;
            });
        } else if (sk == "spec") {
            readClaimSpec(r, sv, fp, ver, out.spec);
        } else
            return false;
        return true;
    });
}

} // namespace

bool readResourceSlice(Reader& r, uint32_t root, ResourceVersion ver, api::ResourceSlice& out)
{
    bool sawSpec = false;
    return readObject(
        r, root, false, out.meta,
        [&](uint32_t v, const Path& sp) {
            sawSpec = true;
            readSliceSpec(r, v, sp, ver, out);
        },
        ignoreStatus,
        [&] {
            // A missing spec is the zero spec, reported field by field like the API server does.
            if (!sawSpec) {
                const Path top;
                const Path sp = top.field("spec");
                r.required(root, sp.field("driver"));
                missingPool(r, root, sp);
                r.error(root, sp,
                    "Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                    "`perDeviceNodeSelection` is required");
            }
        });
}

namespace {

// validateDeviceTaintSelector: each field that is set must be a valid driver, pool or device name.
// deviceClassName and selectors were removed in Kubernetes 1.35 (the eviction controller cannot
// evaluate CEL on allocated devices); an API server of 1.35 or later rejects them as unknown.
void readDeviceTaintSelector(Reader& r, uint32_t n, const Path& p, api::DeviceTaintSelector& out)
{
    r.fields(n, p, [&](std::string_view k, uint32_t keyNode, uint32_t v) {
        const Path fp = p.field(k);
        std::optional<std::string>* target = k == "driver" ? &out.driver
            : k == "pool"                                  ? &out.pool
            : k == "device"                                ? &out.device
                                                           : nullptr;
        if (!target) {
            if (k == "selectors" || k == "deviceClassName") {
                r.error(keyNode, fp,
                    "unknown field \"" + std::string(k)
                        + "\" (removed in Kubernetes 1.35: a DeviceTaintRule selects devices by driver, pool "
                          "and "
                          "device only)");
                return true;
            }
            return false;
        }
        std::string value;
        if (!r.getString(v, fp, value))
            return true;
        if (k == "driver")
            checkDriver(r, v, fp, value);
        else if (k == "pool" && !value.empty())
            reportNameIssues(r, v, fp, poolNameIssues(value));
        else
            checkName(r, v, fp, value, checkDnsLabel);
        *target = std::move(value);
        return true;
    });
}

void readDeviceTaintRuleSpec(Reader& r, uint32_t n, const Path& p, api::DeviceTaintRule& out)
{
    bool sawTaint = false;
    r.fields(n, p, [&](std::string_view k, uint32_t, uint32_t v) {
        const Path fp = p.field(k);
        if (k == "deviceSelector") {
            if (r.isNull(v))
                return true;
            out.deviceSelector.emplace();
            readDeviceTaintSelector(r, v, fp, *out.deviceSelector);
        } else if (k == "taint") {
            sawTaint = !r.isNull(v);
            readDeviceTaint(r, v, fp, out.taint);
        } else {
            return false;
        }
        return true;
    });
    // The taint is required; its key and effect then are too (the API server reports both).
    if (!sawTaint && r.nodeKind(n) == YamlNode::Kind::Map) {
        r.required(n, p.field("taint").field("key"));
        r.required(n, p.field("taint").field("effect"));
    }
}

} // namespace

bool readDeviceTaintRule(Reader& r, uint32_t root, api::DeviceTaintRule& out)
{
    bool sawSpec = false;
    return readObject(
        r, root, false, out.meta,
        [&](uint32_t v, const Path& sp) {
            sawSpec = true;
            readDeviceTaintRuleSpec(r, v, sp, out);
        },
        ignoreStatus,
        [&] {
            if (!sawSpec)
                r.required(root, Path().field("spec"));
        });
}

bool readDeviceClass(Reader& r, uint32_t root, ResourceVersion, api::DeviceClass& out)
{
    return readObject(
        r, root, false, out.meta, [&](uint32_t v, const Path& sp) { readDeviceClassSpec(r, v, sp, out); },
        ignoreStatus, [] {});
}

bool readResourceClaim(Reader& r, uint32_t root, ResourceVersion ver, api::ResourceClaim& out)
{
    return readObject(
        r, root, true, out.meta, [&](uint32_t v, const Path& sp) { readClaimSpec(r, v, sp, ver, out.spec); },
        [&](uint32_t v, const Path& sp) { readClaimStatus(r, v, sp, out); },
        [&] {
            // A missing spec is the zero spec: a claim without requests, which is valid.
            if (uint32_t m = findKey(r.doc(), root, "metadata"))
                if (uint32_t d = findKey(r.doc(), m, "deletionTimestamp"); d && !r.isNull(d))
                    out.deleting = true;
        });
}

bool readResourceClaimTemplate(Reader& r, uint32_t root, ResourceVersion ver, api::ResourceClaimTemplate& out)
{
    // A missing spec.spec is the zero claim spec, which is valid.
    return readObject(
        r, root, true, out.meta, [&](uint32_t v, const Path& sp) { readTemplateSpec(r, v, sp, ver, out); },
        ignoreStatus, [] {});
}

} // namespace drasim::yamlio
