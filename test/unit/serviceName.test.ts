import {appConfig} from '../../src/config';
import {serviceName, toServiceName} from '../../src/config/serviceName';

describe('the service name', () => {
  it('follows the product name: lower case, words joined by dashes', () => {
    expect(toServiceName('Launch Pad 2')).toBe('launch-pad-2');
    expect(toServiceName('  Ship.it!  ')).toBe('ship-it');
    expect(serviceName).toBe(toServiceName(appConfig.appName));
  });
});
