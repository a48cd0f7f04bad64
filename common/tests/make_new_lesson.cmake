# The set-up of the new-lesson tests (CTest fixture "new_lesson"): copies the course into WORK/course,
# writes lesson 99 there with `./course new-lesson 99 scale-shift`, and configures and builds that
# lesson alone (COURSE_LESSONS=99) as the enclosing build is configured. The tests that need it then
# run the new lesson's own tests and its ladder in WORK/course/build.
# Usage: cmake -DROOT=... -DWORK=... -DGENERATOR=... -DARCHITECTURES=... [-DPREFIX_PATH=...]
#              [-DLAUNCHER=...] -P make_new_lesson.cmake
set(copy ${WORK}/course)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/build_tree.cmake)
run("copying the course" bash ${CMAKE_CURRENT_LIST_DIR}/copy_of_course.sh ${copy})
run("./course new-lesson 99 scale-shift" ${copy}/course new-lesson 99 scale-shift)
configure_and_build("lesson 99" ${copy} ${copy}/build -DCOURSE_LESSONS=99 -DCMAKE_CUDA_ARCHITECTURES=${ARCHITECTURES})
