// SPDX-License-Identifier: Apache-2.0
// The manifest editor: live checking with problems at their line, undo through the document,
// saving; and the CEL selector box against a known cluster.
#include <memory>

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QUndoStack>

#include <gtest/gtest.h>

#include "tests/ui/source_path.h"
#include "ui/document/document.h"
#include "ui/document/text_buffers.h"
#include "ui/mainwindow.h"
#include "ui/models/diagnostics_model.h"
#include "ui/models/selector_match_model.h"
#include "ui/pages/editor_page.h"
#include "ui/widgets/cel_selector_box.h"
#include "ui/widgets/code_editor.h"

using drasim::ui::CelSelectorBox;
using drasim::ui::EditorPage;
using drasim::ui::MainWindow;
using drasim::ui::SelectorMatchModel;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// The basic cluster with one attribute misspelt on line 55 ("strin" for "string").
QString writeBadCopy(const QTemporaryDir& dir)
{
    QByteArray text = readAll(sourcePath("scenarios/basic/cluster.yaml"));
    const QByteArray good = "productName: {string: NVIDIA H100 80GB HBM3}";
    text.replace(text.indexOf(good), good.size(), "productName: {strin: NVIDIA H100 80GB HBM3}");
    const QString path = dir.filePath(QStringLiteral("cluster.yaml"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text);
    return path;
}

/// Replaces the text of one line (1-based) as typing would.
void retypeLine(QTextDocument* doc, int line, const QString& text)
{
    QTextCursor c(doc->findBlockByNumber(line - 1));
    c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    c.insertText(text);
}

} // namespace

TEST(EditorPage, ABadManifestShowsItsProblemInlineAndTheAppKeepsWorking)
{
    QTemporaryDir dir;
    const QString path = writeBadCopy(dir);
    MainWindow w;
    w.setRunStorePath(QString());
    EditorPage* page = w.editorPage();
    QAbstractItemModelTester tester(
        page->problemsModel(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy checked(page, &EditorPage::checked);
    w.openPaths({ path });
    ASSERT_TRUE(checked.wait(60000));
    EXPECT_EQ(page->currentFile(), path);

    // The problem is listed with its place and marked on its line; the cursor went there.
    ASSERT_GE(page->problemsModel()->errorCount(), 1);
    const auto* first = page->problemsModel()->diagnosticAt(0);
    EXPECT_EQ(first->pos.line, 55);
    EXPECT_NE(first->message.find("unknown field \"strin\""), std::string::npos) << first->message;
    EXPECT_TRUE(page->editor()->markedLines().contains(55));
    EXPECT_EQ(page->editor()->textCursor().blockNumber() + 1, 55);
    EXPECT_TRUE(page->statusText().contains(QStringLiteral("error"))) << page->statusText().toStdString();
    // The rest of the bundle loaded: the other pages have something to show.
    EXPECT_GT(w.document()->objects()->size(), 0u);

    // Jump-to-line from the problems list.
    page->editor()->goTo(1, 1);
    page->goToProblem(0);
    EXPECT_EQ(page->editor()->textCursor().blockNumber() + 1, 55);

    // Fixing the line clears the problem after the pause; the edit is on the document's stack.
    QTextDocument* text = page->editor()->document();
    retypeLine(text, 55, QStringLiteral("          productName: {string: NVIDIA H100 80GB HBM3}"));
    ASSERT_TRUE(checked.wait(10000));
    EXPECT_EQ(page->problemsModel()->rowCount(), 0);
    EXPECT_TRUE(page->editor()->markedLines().isEmpty());
    EXPECT_TRUE(w.document()->undoStack()->canUndo());
    EXPECT_TRUE(w.document()->textBuffers()->isModified(path));

    // Undo from the window's stack brings the typo (and its problem) back; redo fixes it again.
    w.document()->undoStack()->undo();
    EXPECT_TRUE(text->findBlockByNumber(54).text().contains(QStringLiteral("strin:")));
    ASSERT_TRUE(checked.wait(10000));
    EXPECT_TRUE(page->editor()->markedLines().contains(55));
    w.document()->undoStack()->redo();
    ASSERT_TRUE(checked.wait(10000));
    EXPECT_TRUE(page->editor()->markedLines().isEmpty());

    // Saving writes the file and reopens the document, which now loads without errors.
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    ASSERT_TRUE(page->save());
    ASSERT_TRUE(opened.wait(60000));
    EXPECT_TRUE(readAll(path).contains("productName: {string: NVIDIA H100 80GB HBM3}"));
    EXPECT_FALSE(readAll(path).contains("strin:"));
    EXPECT_FALSE(w.document()->textBuffers()->isModified(path));
    EXPECT_EQ(w.diagnosticsModel()->errorCount(), 0);
    EXPECT_FALSE(w.document()->undoStack()->canUndo());
}

TEST(EditorPage, SavingToAFolderThatIsGoneFailsWithAMessageAndKeepsTheText)
{
    auto dir = std::make_unique<QTemporaryDir>();
    const QString path = writeBadCopy(*dir);
    MainWindow w;
    w.setRunStorePath(QString());
    EditorPage* page = w.editorPage();
    QSignalSpy checked(page, &EditorPage::checked);
    w.openPaths({ path });
    ASSERT_TRUE(checked.wait(60000));
    retypeLine(page->editor()->document(), 1, QStringLiteral("# edited"));
    dir.reset(); // the folder disappears under the editor
    EXPECT_FALSE(page->save());
    EXPECT_TRUE(page->statusText().startsWith(QStringLiteral("Not saved")))
        << page->statusText().toStdString();
    EXPECT_TRUE(w.document()->textBuffers()->isModified(path));
    EXPECT_EQ(page->editor()->document()->firstBlock().text(), QStringLiteral("# edited"));
}

TEST(CelSelectorBox, ListsTheMatchesOfAKnownClusterAndWhyTheOthersFail)
{
    MainWindow w;
    w.setRunStorePath(QString());
    QSignalSpy opened(w.document(), &drasim::ui::Document::opened);
    w.openPaths({ sourcePath("scenarios/basic/cluster.yaml") });
    ASSERT_TRUE(opened.wait(60000));
    CelSelectorBox* box = w.editorPage()->selectorBox();
    SelectorMatchModel* model = box->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy evaluated(box, &CelSelectorBox::evaluated);

    box->setExpression(QStringLiteral("device.attributes[\"gpu.nvidia.com\"].uuid.startsWith(\"GPU-01\")"));
    ASSERT_TRUE(evaluated.wait(10000));
    ASSERT_EQ(model->rowCount(), 8);
    QStringList matching;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, 0).data(SelectorMatchModel::MatchRole).toInt() == 0)
            matching << model->deviceName(r);
    EXPECT_EQ(matching.join(QLatin1Char(' ')).toStdString(),
        "gpu.nvidia.com/gpu-node-b/gpu-0 gpu.nvidia.com/gpu-node-b/gpu-1 gpu.nvidia.com/gpu-node-b/gpu-2 "
        "gpu.nvidia.com/gpu-node-b/gpu-3");
    EXPECT_EQ(model->index(0, SelectorMatchModel::ResultColumn).data().toString().toStdString(),
        "no match: the selector is false");
    EXPECT_EQ(model->index(0, SelectorMatchModel::NodeColumn).data().toString().toStdString(), "gpu-node-a");
    EXPECT_TRUE(box->summary().contains(QStringLiteral("4 of 8 devices match")));

    // A runtime error names what went wrong, per device.
    box->setExpression(QStringLiteral("device.attributes[\"gpu.nvidia.com\"].model == \"x\""));
    ASSERT_TRUE(evaluated.wait(10000));
    EXPECT_TRUE(model->index(0, SelectorMatchModel::ResultColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("error: ")));
    EXPECT_TRUE(model->index(0, SelectorMatchModel::ResultColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("model")));

    // A compile error: no devices, the message with its column.
    box->setExpression(QStringLiteral("device.driver == "));
    ASSERT_TRUE(evaluated.wait(10000));
    EXPECT_EQ(model->rowCount(), 0);
    EXPECT_TRUE(box->summary().contains(QStringLiteral("Does not compile")));
    EXPECT_TRUE(box->summary().contains(QStringLiteral("column"))) << box->summary().toStdString();
}

TEST(CelSelectorBox, ItsExampleFitsTheOpenCluster)
{
    // A trace's cluster: devices without any vendor attributes, no DeviceClass.
    drasim::api::ObjectSet trace;
    drasim::api::ResourceSlice slice;
    slice.driver = "gpu.trace.example";
    slice.pool.name = "node-0";
    slice.nodeName = "node-0";
    slice.devices.resize(2);
    slice.devices[0].name = "gpu-0";
    slice.devices[1].name = "gpu-1";
    trace.resourceSlices.push_back(slice);
    const QString example = CelSelectorBox::exampleFor(&trace);
    EXPECT_EQ(example, QStringLiteral("device.driver == \"gpu.trace.example\""));
    const auto preview = drasim::session::previewSelector(example.toStdString(), trace);
    EXPECT_EQ(preview.errors, 0u);
    EXPECT_EQ(preview.matched, 2u);
    // With a DeviceClass, the class's own selector is the example.
    drasim::api::DeviceClass gpus;
    gpus.meta.name = "gpu";
    gpus.selectors.push_back({ "device.driver.startsWith(\"gpu.\")", {} });
    trace.deviceClasses.push_back(gpus);
    EXPECT_EQ(CelSelectorBox::exampleFor(&trace), QStringLiteral("device.driver.startsWith(\"gpu.\")"));
    CelSelectorBox box;
    box.setObjects(std::make_shared<const drasim::api::ObjectSet>(trace));
    EXPECT_EQ(box.example(), QStringLiteral("device.driver.startsWith(\"gpu.\")"));
}
