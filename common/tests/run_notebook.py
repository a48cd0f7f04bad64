"""Runs a notebook top to bottom, headless, as the test of the hosted-GPU notebook does.

nbclient starts a Python kernel on this machine (local connections only), runs every cell in order,
and shuts the kernel down at the end, also when a cell fails or runs over its time. The test fails on
the first cell that raises; without a GPU the GPU cells must say that they skip, with one they must
show their results.
The notebook runs in a copy of the course (WORK_DIR/course, written by copy_of_course.sh) and builds
where it builds by default, the copy's build-notebook/ (as the course's own build/ stands to the
course, so that ccache finds what that build compiled).
Usage: python3 run_notebook.py COURSE WORK_DIR   (COURSE: the course's folder; WORK_DIR: the copy, and
       the notebook with every output, executed.ipynb)
"""
import os
import pathlib
import subprocess
import sys

import nbclient
import nbformat

course, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
work.mkdir(parents=True, exist_ok=True)
copy = work / "course"
subprocess.run(["bash", str(pathlib.Path(__file__).parent / "copy_of_course.sh"), str(copy)], check=True)
notebook_path = copy / "docs" / "hosted-gpu.ipynb"
os.environ["COURSE_BUILD_DIR"] = str(copy / "build-notebook")
notebook = nbformat.read(notebook_path, as_version=4)
client = nbclient.NotebookClient(notebook, timeout=1800, kernel_name="python3",
                                 resources={"metadata": {"path": str(notebook_path.parent)}})
try:
    client.execute()  # starts the kernel, runs every cell, shuts the kernel down
finally:
    nbformat.write(notebook, work / "executed.ipynb")

printed = "\n".join(output.get("text", "") for cell in notebook.cells if cell.cell_type == "code"
                    for output in cell.get("outputs", []) if output.get("output_type") == "stream")
have_gpu = "No NVIDIA GPU here" not in printed and "older than the course supports" not in printed
expected = (["step 06: PASS", "GPU:"] if have_gpu else
            ["step 06: skipped: no GPU", "skipped: grading needs a GPU", "No NVIDIA GPU here"])
expected.append("CPU sequential")  # the ladder's first row, on any machine
missing = [text for text in expected if text not in printed]
if missing:
    sys.exit(f"the notebook ran, but its outputs lack: {missing} (see {work / 'executed.ipynb'})")
print(f"every cell ran ({'with' if have_gpu else 'without'} a GPU); outputs in {work / 'executed.ipynb'}")
