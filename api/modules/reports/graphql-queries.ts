// Report list, detail and stats queries are registered here.
export {};
