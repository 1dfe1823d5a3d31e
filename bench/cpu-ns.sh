# cpu-ns.sh — sourced by the benchmarks: a process's CPU time in
# nanoseconds.
#
#   cpu_ns PID   prints the run nanoseconds of PID's threads alive now (the
#                first field of each /proc/PID/task/TID/schedstat), 0 when
#                the process is gone
#
# /proc/PID/stat's utime + stime come in clock ticks (10 ms at 100 Hz): a
# reader that takes 0.3 ms a second is 2 or 3 ticks in a 40 s run, so its
# share of a core would be known to within a third.  schedstat counts the
# same CPU time to the nanosecond.  A thread that ended between two calls
# takes what it ran with it: the benchmarks measure single-threaded
# readers (top, bench/bpf-all) and the dashboard, whose threads live as
# long as it does.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ n += $1 } END { printf "%.0f\n", n }'
}
