// aws_ami_from_instance (and aws_ami, aws_ami_copy: the same image record): DescribeImages by
// id, 200 ids a call (ec2-describe.ts), cached per region. A deregistered image is gone.
import { DescribeImages$, DescribeImagesCommand, type Image } from '@aws-sdk/client-ec2';
import { tagMap } from '../../../values.ts';
import { ec2Reader } from '../ec2-describe.ts';
import { str } from '../reader.ts';
import { bool, opt, stateTags, tagList } from '../replay/kit.ts';

export const amiReader = ec2Reader<Image>({
  command: DescribeImagesCommand, schema: DescribeImages$, what: 'DescribeImages', idsField: 'ImageIds', filter: 'image-id',
  listField: 'Images', notFound: 'InvalidAMIID.NotFound', idOf: (i) => i.ImageId ?? '',
}, {
  type: 'aws_ami_from_instance', aliases: ['aws_ami', 'aws_ami_copy'],
  live: (i) => {
    if (i.State === 'deregistered') return null;
    const tags = tagMap(i.Tags);
    return {
      id: i.ImageId, name: i.Name, description: i.Description ?? '', architecture: i.Architecture, root_device_name: i.RootDeviceName ?? '',
      virtualization_type: i.VirtualizationType, ena_support: i.EnaSupport ?? false, sriov_net_support: i.SriovNetSupport ?? '',
      image_location: i.ImageLocation ?? '', owner_id: i.OwnerId, public: i.Public ?? false, tags, tags_all: tags,
    };
  },
  record: (a) => ({
    ImageId: str(a.id), Name: opt(a.name), Description: opt(a.description), Architecture: opt(a.architecture), RootDeviceName: opt(a.root_device_name),
    VirtualizationType: opt(a.virtualization_type), EnaSupport: bool(a.ena_support), SriovNetSupport: opt(a.sriov_net_support), ImageLocation: opt(a.image_location),
    OwnerId: opt(a.owner_id), Public: bool(a.public), State: 'available', Tags: tagList(stateTags(a)),
  }),
});
