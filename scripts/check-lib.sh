#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-lib.sh - sourced by scripts/check (and by scripts/lab-tests,
# which tests the job pool): how stages are run and counted, and the pool
# that runs the jobs.  The caller sets passed and failed (the counts), log
# and fails (temporary files), built (the Debian lab kernels that built),
# jobdir (an empty directory) and jobs_q=().

# note_failures NAME [LOG]: keep the lines of a stage's output that say
# what failed, to be printed again at the end (a CI log may keep only
# its tail).
# A guest test's line is named by its suite and followed by up to four of
# its "#" diagnostics, and preceded by the kernel problem that failed it
# (tests/lib.sh, pp_log_clean).
note_failures() {
	awk -v stage="$1" '
		/^# ---- / { suite = $3 " " ; next }
		/^# kernel problem: / { problem = $0; next }
		/^(not ok |FAILED|# FAIL)|\[(FAILED|CRASHED)\]/ {
			if (problem != "") print stage ": " suite "  " problem
			print stage ": " suite $0; more = 4; problem = ""; next
		}
		more > 0 && /^#/ { print stage ": " suite "  " $0; more--; next }
		/^ok / { problem = "" }
		{ more = 0 }' "${2:-$log}" >>"$fails"
}

# stage NAME COMMAND...: run COMMAND, its output teed to $log; time it.
stage() {
	local name=$1 start rc
	shift
	echo "==== $name"
	start=$(date +%s)
	# In a subshell, whose times are the stage's alone (not a job's
	# reaped meanwhile).
	(
		"$@" 2>&1 | tee "$log"
		rc=${PIPESTATUS[0]}
		times >"$log.times"
		exit "$rc"
	)
	rc=$?
	timing "$name: $(($(date +%s) - start)) s (CPU $(cpu_of "$log.times") s), exit $rc"
	rm -f "$log.times"
	note_failures "$name"
	return "$rc"
}

# timing LINE: "==== LINE", a stage's or job's seconds, also added to the
# file $timings names, if set: what a check keeps of them after its log
# (scripts/check).
timing() {
	echo "==== $1"
	[ -z "${timings:-}" ] || echo "$1" >>"$timings"
}

# cpu_of FILE: the children's CPU seconds in FILE, what times printed
# (its second line, user and system time: "1m2.500s 0m3.250s").
cpu_of() {
	awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) {
		split($i, a, /[ms]/); t += a[1] * 60 + a[2] }; printf "%d", t }' "$1"
}

# count_one NAME RC: a stage that is one check.
count_one() {
	if [ "$2" = 0 ]; then passed=$((passed + 1)); else
		failed=$((failed + 1))
		echo "FAILED: $1" | tee -a "$fails"
	fi
}

# add_counts NAME RC PASSED FAILED: a stage's counts.  A stage that exited
# non-zero with no failure counted is one failure more.
add_counts() {
	passed=$((passed + $3))
	failed=$((failed + $4))
	if [ "$2" != 0 ] && [ "$4" = 0 ]; then
		failed=$((failed + 1))
		echo "FAILED: $1 exited $2" | tee -a "$fails"
	fi
}

# count_summary NAME RC [LOG]: add the stage's "<label>: N passed, M failed"
# line.
count_summary() {
	local line
	line=$(grep -E '^[a-z0-9 .-]+: [0-9]+ passed, [0-9]+ failed$' "${3:-$log}" | tail -n1)
	if [ -z "$line" ]; then
		count_one "$1 printed no summary" 1
		return
	fi
	add_counts "$1" "$2" "$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')" \
		"$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')"
}

# count_kunit RC [LOG]: KUnit's "Testing complete. Ran N tests: passed: P,
# failed: F, crashed: C ...".
count_kunit() {
	local line p f
	line=$(grep -E 'Testing complete\. Ran [0-9]+ tests' "${2:-$log}" | tail -n1)
	if [ -z "$line" ]; then
		count_one "kunit ran no test" 1
		return
	fi
	p=$(echo "$line" | grep -oE 'passed: [0-9]+' | grep -oE '[0-9]+')
	f=$(echo "$line" | grep -oE '(failed|crashed): [0-9]+' | grep -oE '[0-9]+' | paste -sd+ | bc)
	add_counts kunit "$1" "${p:-0}" "${f:-0}"
}

not_run() {
	failed=$((failed + 1))
	echo "FAILED: $1 did not run ($2)" | tee -a "$fails"
}

# ---------------------------------------------------------------------------
# The job pool.  After the builds and static checks, everything else is a
# job: the two kernels built here (debug, KCSAN), DKMS, KUnit, the
# boot-time configuration, the crash dumps, the lab's own tests and the
# guest lanes.  PP_JOBS run at once (a TCG guest takes one host thread; a
# kernel build takes what is left).  A job starts once the kernels it needs
# are there, the longest first; a job whose kernel failed to build is
# counted as not run.  Each job's output is printed whole when it ends.
# ---------------------------------------------------------------------------

# job NAME NEEDS COUNT COMMAND...: queue a job.  NEEDS: the kernels it
# boots or builds against, comma-separated ("-": none); COUNT: how its
# output is counted (one, summary, kunit).  Queue the longest first.
job() {
	local name=$1 needs=$2 count=$3
	shift 3
	printf '%q ' "$@" >"$jobdir/$name.cmd"
	echo "$needs $count" >"$jobdir/$name.meta"
	jobs_q+=("$name")
}

# A kernel is ready when it is one of the Debian lab kernels that built,
# or a kernel job (debug, kcsan) that ended well; failed when its job
# failed or it is a lab kernel that did not build.
kernel_state() {
	case " $built " in *" $1 "*) echo ready; return ;; esac
	case "$1" in
	debug | kcsan | debug-7.3)
		if [ -f "$jobdir/$1 kernel.rc" ]; then
			read -r rc _ <"$jobdir/$1 kernel.rc"
			[ "$rc" = 0 ] && echo ready || echo failed
		else
			echo waiting
		fi ;;
	*) echo failed ;;
	esac
}

# needs_state NEEDS: ready, waiting or "failed KERNEL".
needs_state() {
	local k st
	[ "$1" = - ] && { echo ready; return; }
	for k in ${1//,/ }; do
		st=$(kernel_state "$k")
		case $st in
		failed) echo "failed $k"; return ;;
		waiting) echo waiting; return ;;
		esac
	done
	echo ready
}

start_job() {
	local name=$1
	echo "==== $name started"
	(
		s=$(date +%s)
		eval "$(cat "$jobdir/$name.cmd")" >"$jobdir/$name.log" 2>&1
		rc=$?
		# The CPU time of the job's processes.  times runs in this
		# shell, not in a command substitution's subshell, which has
		# no children.
		times >"$jobdir/$name.times"
		cpu=$(cpu_of "$jobdir/$name.times")
		echo "$rc $(($(date +%s) - s)) $cpu" >"$jobdir/$name.rc.tmp"
		mv "$jobdir/$name.rc.tmp" "$jobdir/$name.rc"
	) &
}

end_job() {
	local name=$1 rc secs cpu needs count
	read -r rc secs cpu <"$jobdir/$name.rc"
	read -r needs count <"$jobdir/$name.meta"
	echo "==== $name"
	cat "$jobdir/$name.log"
	timing "$name: $secs s (CPU ${cpu:-?} s), exit $rc"
	note_failures "$name" "$jobdir/$name.log"
	case $count in
	one) count_one "$name" "$rc" ;;
	kunit) count_kunit "$rc" "$jobdir/$name.log" ;;
	*) count_summary "$name" "$rc" "$jobdir/$name.log" ;;
	esac
}

# run_jobs: run the queued jobs.  The jobs already started (the array
# early, if set: the kernel builds started before the stages) run from the
# start and take one of PP_JOBS's places each.
run_jobs() {
	local jobs=${PP_JOBS:-$(nproc)} running=(${early[@]+"${early[@]}"})
	local queue=("${jobs_q[@]}") rest
	local name needs count st
	while [ ${#queue[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		# Start what may start, in queue order.
		rest=()
		for name in "${queue[@]}"; do
			read -r needs count <"$jobdir/$name.meta"
			st=$(needs_state "$needs")
			case $st in
			failed*)
				not_run "$name" "no ${st#failed } kernel"
				# A kernel not built fails what needs it.
				echo "1 0" >"$jobdir/$name.rc" ;;
			ready)
				if [ ${#running[@]} -lt "$jobs" ]; then
					start_job "$name"
					running+=("$name")
				else
					rest+=("$name")
				fi ;;
			*) rest+=("$name") ;;
			esac
		done
		queue=("${rest[@]}")
		if [ ${#running[@]} = 0 ]; then
			# Nothing runs, so whatever is left waits for a kernel
			# that no job will build.
			for name in "${queue[@]}"; do
				not_run "$name" "its kernel is never built"
			done
			break
		fi
		# Wait for one to end; print and count every one that has.
		wait -n
		rest=()
		for name in "${running[@]}"; do
			if [ -f "$jobdir/$name.rc" ]; then end_job "$name"; else rest+=("$name"); fi
		done
		running=("${rest[@]}")
	done
}
