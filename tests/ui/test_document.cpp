// SPDX-License-Identifier: Apache-2.0
// The document over a session: opening manifests or a scenario in the background, what observers
// see, and undoable edits.
#include <QSignalSpy>
#include <QUndoStack>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"

using drasim::ui::Document;

namespace {

bool openAndWait(Document& doc, const QStringList& paths)
{
    QSignalSpy opened(&doc, &Document::opened);
    doc.open(paths);
    return opened.wait(60000);
}

} // namespace

TEST(Document, OpensManifestsThroughTheSession)
{
    Document doc;
    EXPECT_EQ(doc.session(), nullptr);
    EXPECT_EQ(doc.objects()->size(), 0u);
    ASSERT_TRUE(openAndWait(doc, { sourcePath("scenarios/basic/cluster.yaml") }));
    ASSERT_NE(doc.session(), nullptr);
    EXPECT_FALSE(doc.isScenario());
    EXPECT_EQ(doc.objects()->nodes.size(), 2u);
    EXPECT_EQ(doc.prepared(), nullptr);
    EXPECT_EQ(doc.displayName().toStdString(), "cluster.yaml");
    EXPECT_EQ(doc.paths(), QStringList { sourcePath("scenarios/basic/cluster.yaml") });
}

TEST(Document, OpensAScenarioWithThePreparedClusterAndKeepsOldObjectsAlive)
{
    Document doc;
    ASSERT_TRUE(openAndWait(doc, { sourcePath("scenarios/basic/cluster.yaml") }));
    const auto before = doc.objects();
    ASSERT_TRUE(openAndWait(doc, { sourcePath("scenarios/sim/default/scenario.yaml") }));
    EXPECT_TRUE(doc.isScenario());
    ASSERT_NE(doc.prepared(), nullptr);
    EXPECT_GT(doc.objects()->nodes.size(), 0u); // the cluster the scenario builds at time 0
    EXPECT_GT(doc.objects()->resourceSlices.size(), 0u);
    EXPECT_EQ(before->nodes.size(), 2u); // a view still showing the old objects keeps them
}

TEST(Document, SeedEditsAreUndoableAndANewDocumentStartsClean)
{
    Document doc;
    QSignalSpy changed(&doc, &Document::seedOverrideChanged);
    EXPECT_FALSE(doc.seedOverride().has_value());
    doc.setSeedOverride(4);
    doc.setSeedOverride(42); // typing "42" merges into one edit
    EXPECT_EQ(doc.seedOverride(), std::optional<quint64>(42));
    EXPECT_EQ(doc.undoStack()->count(), 1);
    doc.undoStack()->undo();
    EXPECT_FALSE(doc.seedOverride().has_value());
    doc.undoStack()->redo();
    EXPECT_EQ(doc.seedOverride(), std::optional<quint64>(42));
    EXPECT_GE(changed.count(), 3);
    doc.setSeedOverride(42); // no change, no edit
    EXPECT_EQ(doc.undoStack()->count(), 1);

    ASSERT_TRUE(openAndWait(doc, { sourcePath("scenarios/basic/cluster.yaml") }));
    EXPECT_FALSE(doc.seedOverride().has_value());
    EXPECT_EQ(doc.undoStack()->count(), 0);
}

TEST(Document, BadInputKeepsWhatLoadedAndReportsProblems)
{
    Document doc;
    ASSERT_TRUE(openAndWait(
        doc, { sourcePath("scenarios/basic/cluster.yaml"), QStringLiteral("/nonexistent/x.yaml") }));
    EXPECT_EQ(doc.objects()->nodes.size(), 2u);
    bool reported = false;
    for (const auto& d : doc.diagnostics())
        reported |= d.severity == drasim::Severity::Error && d.pos.file == "/nonexistent/x.yaml";
    EXPECT_TRUE(reported);
}
