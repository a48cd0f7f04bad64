# A container to grade students' work in (./course grade-class): the CUDA Toolkit (with
# compute-sanitizer), a compiler, Ninja, Catch2 2.x and a recent CMake, and nothing else. Students' code
# then runs with no network and sees only the folders given to it. See docs/instructor-guide.md.
#   docker build -t course-grader -f common/tools/grade-class.Dockerfile .
FROM nvidia/cuda:12.6.3-devel-ubuntu22.04
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      g++ make ninja-build catch2 python3-pip \
 && pip3 install --no-cache-dir "cmake>=3.24,<4" \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home grader
USER grader
WORKDIR /course
