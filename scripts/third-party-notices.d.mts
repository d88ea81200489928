export function thirdPartyNotices(): Promise<string>;
export function section(title: string, text: string): string;
