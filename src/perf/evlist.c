// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evlist.c: the events this machine can count, for a person choosing them
 * (the Counters pane's picker): the kernel's software events, and where
 * sysfs lists a CPU PMU (bus/event_source/devices) the generic hardware
 * events and the events libpfm4 knows for the core PMUs it detected. Each
 * name listed is one perf_event_resolve() takes, so a choice never fails
 * for its spelling. Touches sysfs and libpfm4's tables; opens no event.
 */
#include <dlfcn.h>
#include <errno.h>
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <string.h>

#include "ptop/perf.h"
#include "ptop/util.h"

/* The kernel's software events (PERF_TYPE_SOFTWARE), by perf's names. */
static const struct {
	const char *name, *desc;
} software[] = {
    {"task-clock", N_("CPU time the task ran (ns, shown in ms)")},
    {"cpu-clock", N_("CPU time by the CPU's clock (ns)")},
    {"context-switches", N_("times the task left the CPU")},
    {"cpu-migrations", N_("moves to another CPU")},
    {"page-faults", N_("page faults, minor and major")},
    {"minor-faults", N_("page faults served without I/O")},
    {"major-faults", N_("page faults that waited for I/O")},
    {"alignment-faults", N_("unaligned accesses fixed up by the kernel")},
    {"emulation-faults", N_("instructions the kernel emulated")},
};

/* perf's generic hardware events: every CPU PMU maps them. */
static const struct {
	const char *name, *desc;
} generic[] = {
    {"cycles", N_("CPU cycles")},
    {"instructions", N_("instructions retired")},
    {"cache-references", N_("last-level cache accesses")},
    {"cache-misses", N_("last-level cache misses")},
    {"branch-instructions", N_("branches retired")},
    {"branch-misses", N_("mispredicted branches")},
    {"ref-cycles", N_("cycles at the reference clock")},
    {"stalled-cycles-frontend", N_("cycles the front end stalled")},
    {"stalled-cycles-backend", N_("cycles the back end stalled")},
};

/* libpfm4's event tables: what counters.c loaded (perf_init), looked up again. */
struct pfm_api {
	pfm_err_t (*pmu_info)(pfm_pmu_t pmu, pfm_pmu_info_t *info);
	pfm_err_t (*event_info)(int idx, pfm_os_t os, pfm_event_info_t *info);
	int (*event_next)(int idx);
};

static int pfm_api(struct pfm_api *api)
{
	const struct dl_sym syms[] = {
	    {"pfm_get_pmu_info", (void **)&api->pmu_info},
	    {"pfm_get_event_info", (void **)&api->event_info},
	    {"pfm_get_event_next", (void **)&api->event_next},
	};

	if (perf_init())
		return -ENODEV;
	/* already loaded by perf_init(): RTLD_NOLOAD only takes another reference */
	if (util_dlsyms("libpfm.so.4", RTLD_NOLOAD, syms, sizeof(syms) / sizeof(syms[0])))
		return -ENODEV;
	return 0;
}

static int emit(perf_event_list_fn fn, void *ctx, const char *name, const char *desc, bool hw)
{
	struct perf_event_spec spec;
	struct perf_event_desc d = {.name = name, .desc = desc, .hardware = hw};

	/* a name libpfm4 (or the fallback table) does not take is not offered */
	if (perf_event_resolve(name, &spec))
		return 0;
	return fn(ctx, &d);
}

/* The events of one core PMU libpfm4 detected, as PMU::EVENT. */
static int list_pmu(const struct pfm_api *api, const pfm_pmu_info_t *pi, perf_event_list_fn fn,
		    void *ctx)
{
	for (int i = pi->first_event; i != -1; i = api->event_next(i)) {
		pfm_event_info_t ei;
		char name[PERF_NAME_MAX];
		int err;

		memset(&ei, 0, sizeof(ei));
		ei.size = sizeof(ei);
		if (api->event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
		    snprintf(name, sizeof(name), "%s::%s", pi->name, ei.name) >= (int)sizeof(name))
			continue;
		/* an event without a default unit mask does not encode bare: not offered */
		err = emit(fn, ctx, name, ei.desc ? ei.desc : "", true);
		if (err)
			return err;
	}
	return 0;
}

static int list_libpfm(perf_event_list_fn fn, void *ctx)
{
	struct pfm_api api;

	if (pfm_api(&api))
		return 0; /* the generic names are all there is without libpfm4 */
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;
		int err;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		if (api.pmu_info((pfm_pmu_t)p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    pi.type != PFM_PMU_TYPE_CORE)
			continue;
		err = list_pmu(&api, &pi, fn, ctx);
		if (err)
			return err;
	}
	return 0;
}

int perf_event_list(perf_event_list_fn fn, void *ctx, bool *pmu)
{
	struct perf_pmu pmus[PERF_PMUS_MAX];
	int n = perf_core_pmus(pmus, PERF_PMUS_MAX), err;

	*pmu = n > 0;
	for (size_t i = 0; i < sizeof(software) / sizeof(software[0]); i++) {
		err = emit(fn, ctx, software[i].name, software[i].desc, false);
		if (err)
			return err;
	}
	if (n <= 0)
		return 0;
	for (size_t i = 0; i < sizeof(generic) / sizeof(generic[0]); i++) {
		err = emit(fn, ctx, generic[i].name, generic[i].desc, true);
		if (err)
			return err;
	}
	return list_libpfm(fn, ctx);
}
