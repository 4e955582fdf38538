// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * meter_net.c: network throughput, received and sent per second over every
 * interface but loopback (frame.sysio, from /proc/net/dev).
 */
#include "meter.h"

static void net_draw(struct ui *ui, const struct meter_at *at)
{
	const struct frame_sysio *io = &ui->frame.sysio;
	struct sbuf *b = meter_scratch(0);

	if (at->h < 1)
		return;
	if (io->net_error) {
		sbuf_adds(b, _("unavailable"));
	} else {
		meter_rate(b, _("received"), io->net_rx_bps, io->net_rates);
		sbuf_adds(b, ", ");
		meter_rate(b, _("sent"), io->net_tx_bps, io->net_rates);
	}
	meter_line(ui, at, _("Network: "), b);
}

const struct meter_def meter_net = {
    .name = "network",
    .needs = METER_NEEDS_SYSIO,
    .height = meter_spare_row,
    .draw = net_draw,
};
